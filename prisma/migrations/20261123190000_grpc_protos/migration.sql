-- CreateTable
CREATE TABLE "GrpcProto" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "services" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GrpcProto_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GrpcProto_namespaceId_name_key" ON "GrpcProto"("namespaceId", "name");

-- AddForeignKey
ALTER TABLE "GrpcProto" ADD CONSTRAINT "GrpcProto_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

