-- CreateTable
CREATE TABLE "ProtocolServer" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "protocol" TEXT NOT NULL,
    "host" TEXT,
    "port" INTEGER,
    "url" TEXT,
    "brokers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "credentialsEnc" TEXT,
    "options" JSONB NOT NULL DEFAULT '{}',
    "state" TEXT NOT NULL DEFAULT 'stopped',
    "stateReason" TEXT,
    "stateAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProtocolServer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProtocolServer_protocol_idx" ON "ProtocolServer"("protocol");

-- CreateIndex
CREATE UNIQUE INDEX "ProtocolServer_namespaceId_name_key" ON "ProtocolServer"("namespaceId", "name");

-- AddForeignKey
ALTER TABLE "ProtocolServer" ADD CONSTRAINT "ProtocolServer_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

