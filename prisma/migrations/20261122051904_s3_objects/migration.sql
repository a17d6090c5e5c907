-- CreateTable
CREATE TABLE "S3Object" (
    "namespaceId" UUID NOT NULL,
    "bucket" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "contentType" TEXT NOT NULL,
    "etag" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "lastModified" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "S3Object_pkey" PRIMARY KEY ("namespaceId","bucket","key")
);

-- AddForeignKey
ALTER TABLE "S3Object" ADD CONSTRAINT "S3Object_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

