-- CreateTable
CREATE TABLE "PerfConfig" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "script" TEXT NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "environment" JSONB NOT NULL DEFAULT '{}',
    "files" JSONB NOT NULL DEFAULT '{}',
    "collectionIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "environmentId" TEXT,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PerfConfig_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PerfResult" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "configId" UUID,
    "runGroupId" UUID NOT NULL,
    "taskId" UUID,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "reason" TEXT,
    "script" TEXT NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "envNames" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "summary" JSONB,
    "summaryText" TEXT,
    "thresholds" JSONB NOT NULL DEFAULT '[]',
    "series" JSONB NOT NULL DEFAULT '[]',
    "errors" JSONB NOT NULL DEFAULT '[]',
    "logs" JSONB NOT NULL DEFAULT '[]',
    "handleSummary" JSONB,
    "metrics" JSONB,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "stopRequested" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "PerfResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PerfRunPart" (
    "id" UUID NOT NULL,
    "resultId" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "reason" TEXT,
    "runnerId" UUID,
    "jobId" TEXT,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "snapshot" JSONB,
    "series" JSONB NOT NULL DEFAULT '[]',
    "thresholds" JSONB NOT NULL DEFAULT '[]',
    "logs" JSONB NOT NULL DEFAULT '[]',
    "heartbeatAt" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "PerfRunPart_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PerfSchedule" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "configId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "cron" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "nextRunAt" TIMESTAMP(3),
    "lastRunAt" TIMESTAMP(3),
    "lastResultId" TEXT,
    "lastStatus" TEXT,
    "lastError" TEXT,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PerfSchedule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Runner" (
    "id" UUID NOT NULL,
    "credentialId" UUID NOT NULL,
    "namespaceId" UUID,
    "name" TEXT NOT NULL,
    "hostname" TEXT NOT NULL DEFAULT '',
    "version" TEXT NOT NULL DEFAULT '',
    "capacityVus" INTEGER NOT NULL,
    "activeVus" INTEGER NOT NULL DEFAULT 0,
    "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL DEFAULT 'online',
    "lastHeartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "registeredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Runner_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunnerTask" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "configId" UUID,
    "options" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "resultId" UUID,
    "preferredRunnerId" UUID,
    "vus" INTEGER NOT NULL DEFAULT 1,
    "parts" INTEGER NOT NULL DEFAULT 1,
    "error" TEXT,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "RunnerTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PerfConfig_namespaceId_updatedAt_idx" ON "PerfConfig"("namespaceId", "updatedAt");

-- CreateIndex
CREATE INDEX "PerfResult_namespaceId_createdAt_idx" ON "PerfResult"("namespaceId", "createdAt");

-- CreateIndex
CREATE INDEX "PerfResult_configId_createdAt_idx" ON "PerfResult"("configId", "createdAt");

-- CreateIndex
CREATE INDEX "PerfResult_runGroupId_idx" ON "PerfResult"("runGroupId");

-- CreateIndex
CREATE INDEX "PerfResult_taskId_idx" ON "PerfResult"("taskId");

-- CreateIndex
CREATE INDEX "PerfRunPart_runnerId_status_idx" ON "PerfRunPart"("runnerId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "PerfRunPart_resultId_index_key" ON "PerfRunPart"("resultId", "index");

-- CreateIndex
CREATE INDEX "PerfSchedule_enabled_nextRunAt_idx" ON "PerfSchedule"("enabled", "nextRunAt");

-- CreateIndex
CREATE INDEX "PerfSchedule_namespaceId_idx" ON "PerfSchedule"("namespaceId");

-- CreateIndex
CREATE INDEX "Runner_status_lastHeartbeatAt_idx" ON "Runner"("status", "lastHeartbeatAt");

-- CreateIndex
CREATE UNIQUE INDEX "Runner_credentialId_name_key" ON "Runner"("credentialId", "name");

-- CreateIndex
CREATE INDEX "RunnerTask_namespaceId_createdAt_idx" ON "RunnerTask"("namespaceId", "createdAt");

-- CreateIndex
CREATE INDEX "RunnerTask_status_createdAt_idx" ON "RunnerTask"("status", "createdAt");

-- AddForeignKey
ALTER TABLE "PerfConfig" ADD CONSTRAINT "PerfConfig_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PerfResult" ADD CONSTRAINT "PerfResult_id_fkey" FOREIGN KEY ("id") REFERENCES "TestRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PerfResult" ADD CONSTRAINT "PerfResult_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PerfRunPart" ADD CONSTRAINT "PerfRunPart_resultId_fkey" FOREIGN KEY ("resultId") REFERENCES "PerfResult"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PerfSchedule" ADD CONSTRAINT "PerfSchedule_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunnerTask" ADD CONSTRAINT "RunnerTask_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

