-- CreateTable
CREATE TABLE "KafkaReplyLedger" (
    "serverId" UUID NOT NULL,
    "groupId" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "partition" INTEGER NOT NULL,
    "offset" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KafkaReplyLedger_pkey" PRIMARY KEY ("serverId","groupId","topic","partition","offset")
);

-- CreateIndex
CREATE INDEX "KafkaReplyLedger_createdAt_idx" ON "KafkaReplyLedger"("createdAt");
