-- CreateTable
CREATE TABLE "TesterCollection" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "variables" JSON NOT NULL DEFAULT '[]',
    "auth" JSON NOT NULL DEFAULT '{"type":"none"}',
    "scripts" JSON NOT NULL DEFAULT '{}',
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "TesterCollection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TesterFolder" (
    "id" UUID NOT NULL,
    "collectionId" UUID NOT NULL,
    "parentId" UUID,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "auth" JSON NOT NULL DEFAULT '{"type":"inherit"}',
    "scripts" JSON NOT NULL DEFAULT '{}',
    "sortIndex" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TesterFolder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TesterRequest" (
    "id" UUID NOT NULL,
    "collectionId" UUID NOT NULL,
    "folderId" UUID,
    "name" TEXT NOT NULL,
    "sortIndex" INTEGER NOT NULL DEFAULT 0,
    "kind" TEXT NOT NULL DEFAULT 'http',
    "method" TEXT NOT NULL DEFAULT 'GET',
    "url" TEXT NOT NULL DEFAULT '',
    "definition" JSON NOT NULL,
    "schemaVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TesterRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TesterEnvironment" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "variables" JSON NOT NULL DEFAULT '{}',
    "secrets" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TesterEnvironment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TesterActiveEnvironment" (
    "userId" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "environmentId" UUID NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TesterActiveEnvironment_pkey" PRIMARY KEY ("userId","namespaceId")
);

-- CreateTable
CREATE TABLE "TesterHistory" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "requestId" UUID,
    "collectionId" UUID,
    "method" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status" INTEGER,
    "timeMs" DOUBLE PRECISION,
    "size" INTEGER,
    "sent" JSON NOT NULL,
    "response" JSON,
    "verdict" JSON,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TesterHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TestRun" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'functional',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "referenceId" TEXT,
    "collectionIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "environmentId" TEXT,
    "iterations" INTEGER NOT NULL DEFAULT 1,
    "counts" JSONB NOT NULL DEFAULT '{}',
    "statusReason" TEXT,
    "source" TEXT NOT NULL DEFAULT 'run',
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "durationMs" DOUBLE PRECISION,
    "heartbeatAt" TIMESTAMP(3),
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "options" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "TestRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TestRunResult" (
    "runId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "iteration" INTEGER NOT NULL,
    "collectionId" TEXT,
    "requestId" TEXT,
    "name" TEXT NOT NULL,
    "path" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "method" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "responseCode" INTEGER,
    "responseTimeMs" DOUBLE PRECISION,
    "responseSize" INTEGER,
    "tests" JSONB NOT NULL DEFAULT '[]',
    "logs" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "scriptError" JSONB,
    "startedAt" TEXT NOT NULL,

    CONSTRAINT "TestRunResult_pkey" PRIMARY KEY ("runId","seq")
);

-- CreateIndex
CREATE INDEX "TesterCollection_namespaceId_deletedAt_updatedAt_idx" ON "TesterCollection"("namespaceId", "deletedAt", "updatedAt");

-- CreateIndex
CREATE INDEX "TesterFolder_collectionId_parentId_idx" ON "TesterFolder"("collectionId", "parentId");

-- CreateIndex
CREATE INDEX "TesterRequest_collectionId_folderId_sortIndex_idx" ON "TesterRequest"("collectionId", "folderId", "sortIndex");

-- CreateIndex
CREATE INDEX "TesterEnvironment_namespaceId_name_idx" ON "TesterEnvironment"("namespaceId", "name");

-- CreateIndex
CREATE INDEX "TesterActiveEnvironment_environmentId_idx" ON "TesterActiveEnvironment"("environmentId");

-- CreateIndex
CREATE INDEX "TesterHistory_namespaceId_userId_createdAt_idx" ON "TesterHistory"("namespaceId", "userId", "createdAt");

-- CreateIndex
CREATE INDEX "TesterHistory_requestId_idx" ON "TesterHistory"("requestId");

-- CreateIndex
CREATE INDEX "TestRun_namespaceId_mode_createdAt_idx" ON "TestRun"("namespaceId", "mode", "createdAt");

-- CreateIndex
CREATE INDEX "TestRun_namespaceId_referenceId_idx" ON "TestRun"("namespaceId", "referenceId");

-- CreateIndex
CREATE INDEX "TestRun_status_heartbeatAt_idx" ON "TestRun"("status", "heartbeatAt");

-- AddForeignKey
ALTER TABLE "TesterCollection" ADD CONSTRAINT "TesterCollection_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterFolder" ADD CONSTRAINT "TesterFolder_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "TesterCollection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterFolder" ADD CONSTRAINT "TesterFolder_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "TesterFolder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterRequest" ADD CONSTRAINT "TesterRequest_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "TesterCollection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterRequest" ADD CONSTRAINT "TesterRequest_folderId_fkey" FOREIGN KEY ("folderId") REFERENCES "TesterFolder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterEnvironment" ADD CONSTRAINT "TesterEnvironment_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterActiveEnvironment" ADD CONSTRAINT "TesterActiveEnvironment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterActiveEnvironment" ADD CONSTRAINT "TesterActiveEnvironment_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterActiveEnvironment" ADD CONSTRAINT "TesterActiveEnvironment_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "TesterEnvironment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterHistory" ADD CONSTRAINT "TesterHistory_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterHistory" ADD CONSTRAINT "TesterHistory_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterHistory" ADD CONSTRAINT "TesterHistory_requestId_fkey" FOREIGN KEY ("requestId") REFERENCES "TesterRequest"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TestRun" ADD CONSTRAINT "TestRun_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TestRunResult" ADD CONSTRAINT "TestRunResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "TestRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

