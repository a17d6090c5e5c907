-- CreateTable
CREATE TABLE "TesterTest" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "collections" JSONB NOT NULL DEFAULT '[]',
    "environmentId" TEXT,
    "iterations" INTEGER,
    "data" JSONB,
    "delayMs" INTEGER NOT NULL DEFAULT 0,
    "bail" BOOLEAN NOT NULL DEFAULT false,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TesterTest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TesterSchedule" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "ownerId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "cron" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "collectionIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "environmentId" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "nextRunAt" TIMESTAMP(3),
    "lastRunAt" TIMESTAMP(3),
    "lastRunId" TEXT,
    "lastRunStatus" TEXT,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TesterSchedule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TesterTest_namespaceId_name_idx" ON "TesterTest"("namespaceId", "name");

-- CreateIndex
CREATE INDEX "TesterSchedule_enabled_nextRunAt_idx" ON "TesterSchedule"("enabled", "nextRunAt");

-- CreateIndex
CREATE INDEX "TesterSchedule_namespaceId_ownerId_idx" ON "TesterSchedule"("namespaceId", "ownerId");

-- AddForeignKey
ALTER TABLE "TesterTest" ADD CONSTRAINT "TesterTest_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterSchedule" ADD CONSTRAINT "TesterSchedule_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterSchedule" ADD CONSTRAINT "TesterSchedule_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

