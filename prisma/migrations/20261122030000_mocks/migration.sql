-- CreateTable
CREATE TABLE "Mock" (
    "pk" UUID NOT NULL,
    "id" TEXT NOT NULL,
    "namespaceId" UUID NOT NULL,
    "protocol" TEXT NOT NULL,
    "method" TEXT,
    "route" TEXT,
    "chainId" TEXT,
    "folderId" UUID,
    "tags" TEXT[],
    "priority" INTEGER NOT NULL DEFAULT 0,
    "definition" JSONB NOT NULL,
    "schemaVersion" INTEGER NOT NULL DEFAULT 1,
    "version" INTEGER NOT NULL DEFAULT 1,
    "useCounter" INTEGER NOT NULL DEFAULT 0,
    "useLimiter" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),
    "createdBy" TEXT,

    CONSTRAINT "Mock_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "MockVersion" (
    "pk" UUID NOT NULL,
    "mockPk" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "change" TEXT NOT NULL,

    CONSTRAINT "MockVersion_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "MockFolder" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "parentId" UUID,
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MockFolder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Tag" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Tag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StoreEntry" (
    "namespaceId" UUID NOT NULL,
    "chainId" TEXT NOT NULL DEFAULT '',
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StoreEntry_pkey" PRIMARY KEY ("namespaceId","chainId","key")
);

-- CreateTable
CREATE TABLE "TemplateFile" (
    "namespaceId" UUID NOT NULL,
    "fileName" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TemplateFile_pkey" PRIMARY KEY ("namespaceId","fileName")
);

-- CreateTable
CREATE TABLE "TempFile" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "ownerKey" TEXT NOT NULL,
    "nameEnc" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "encrypted" BOOLEAN NOT NULL DEFAULT false,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TempFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UndefinedRequest" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "protocol" TEXT NOT NULL DEFAULT 'http',
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "headers" JSONB NOT NULL,
    "query" JSONB NOT NULL,
    "body" JSONB,
    "count" INTEGER NOT NULL DEFAULT 1,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ignored" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "UndefinedRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RequestLog" (
    "id" BIGSERIAL NOT NULL,
    "namespaceId" UUID NOT NULL,
    "mockId" TEXT NOT NULL,
    "calledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "method" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "headers" JSONB NOT NULL,
    "query" JSONB NOT NULL,
    "body" JSONB,
    "status" INTEGER NOT NULL,
    "durationMs" DOUBLE PRECISION NOT NULL,
    "response" JSONB,

    CONSTRAINT "RequestLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Mock_namespaceId_deletedAt_idx" ON "Mock"("namespaceId", "deletedAt");

-- CreateIndex
CREATE INDEX "Mock_namespaceId_chainId_idx" ON "Mock"("namespaceId", "chainId");

-- CreateIndex
CREATE UNIQUE INDEX "Mock_namespaceId_id_key" ON "Mock"("namespaceId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "MockVersion_mockPk_version_key" ON "MockVersion"("mockPk", "version");

-- CreateIndex
CREATE INDEX "MockFolder_namespaceId_parentId_idx" ON "MockFolder"("namespaceId", "parentId");

-- CreateIndex
CREATE UNIQUE INDEX "Tag_namespaceId_name_key" ON "Tag"("namespaceId", "name");

-- CreateIndex
CREATE INDEX "TempFile_expiresAt_idx" ON "TempFile"("expiresAt");

-- CreateIndex
CREATE INDEX "UndefinedRequest_namespaceId_lastSeenAt_idx" ON "UndefinedRequest"("namespaceId", "lastSeenAt");

-- CreateIndex
CREATE UNIQUE INDEX "UndefinedRequest_namespaceId_signature_key" ON "UndefinedRequest"("namespaceId", "signature");

-- CreateIndex
CREATE INDEX "RequestLog_namespaceId_mockId_calledAt_idx" ON "RequestLog"("namespaceId", "mockId", "calledAt");

-- CreateIndex
CREATE INDEX "RequestLog_namespaceId_calledAt_idx" ON "RequestLog"("namespaceId", "calledAt");

-- AddForeignKey
ALTER TABLE "Mock" ADD CONSTRAINT "Mock_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Mock" ADD CONSTRAINT "Mock_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "MockFolder"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MockVersion" ADD CONSTRAINT "MockVersion_mockPk_fkey" FOREIGN KEY ("mockPk") REFERENCES "Mock"("pk") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MockFolder" ADD CONSTRAINT "MockFolder_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MockFolder" ADD CONSTRAINT "MockFolder_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "MockFolder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tag" ADD CONSTRAINT "Tag_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StoreEntry" ADD CONSTRAINT "StoreEntry_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TemplateFile" ADD CONSTRAINT "TemplateFile_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TempFile" ADD CONSTRAINT "TempFile_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UndefinedRequest" ADD CONSTRAINT "UndefinedRequest_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

