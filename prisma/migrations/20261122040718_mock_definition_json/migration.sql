-- AlterTable
ALTER TABLE "Mock" ALTER COLUMN "definition" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "MockVersion" ALTER COLUMN "definition" SET DATA TYPE JSON;

