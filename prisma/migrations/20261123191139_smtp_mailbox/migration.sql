-- CreateTable
CREATE TABLE "ReceivedMail" (
    "id" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "serverName" TEXT NOT NULL,
    "envelopeFrom" TEXT NOT NULL,
    "envelopeTo" TEXT[],
    "headerFrom" TEXT,
    "headerTo" TEXT,
    "cc" TEXT,
    "subject" TEXT NOT NULL,
    "text" TEXT,
    "html" TEXT,
    "headers" JSONB NOT NULL DEFAULT '[]',
    "rawSize" INTEGER NOT NULL,
    "mockId" TEXT,
    "replyCode" INTEGER NOT NULL,
    "replyText" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReceivedMail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReceivedMailAttachment" (
    "mailId" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "filename" TEXT,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "contentId" TEXT,
    "inline" BOOLEAN NOT NULL DEFAULT false,
    "content" BYTEA,

    CONSTRAINT "ReceivedMailAttachment_pkey" PRIMARY KEY ("mailId","index")
);

-- CreateIndex
CREATE INDEX "ReceivedMail_namespaceId_receivedAt_idx" ON "ReceivedMail"("namespaceId", "receivedAt");

-- AddForeignKey
ALTER TABLE "ReceivedMail" ADD CONSTRAINT "ReceivedMail_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReceivedMailAttachment" ADD CONSTRAINT "ReceivedMailAttachment_mailId_fkey" FOREIGN KEY ("mailId") REFERENCES "ReceivedMail"("id") ON DELETE CASCADE ON UPDATE CASCADE;

