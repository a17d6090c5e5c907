-- CreateTable
CREATE TABLE "TesterCollectionUserGrant" (
    "id" UUID NOT NULL,
    "collectionId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "grantedById" UUID NOT NULL,
    "granteeMembershipId" UUID NOT NULL,
    "granterMembershipId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TesterCollectionUserGrant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TesterCollectionSpaceGrant" (
    "id" UUID NOT NULL,
    "collectionId" UUID NOT NULL,
    "namespaceId" UUID NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "grantedById" UUID NOT NULL,
    "granterMembershipId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TesterCollectionSpaceGrant_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TesterCollectionUserGrant_userId_idx" ON "TesterCollectionUserGrant"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "TesterCollectionUserGrant_collectionId_userId_key" ON "TesterCollectionUserGrant"("collectionId", "userId");

-- CreateIndex
CREATE INDEX "TesterCollectionSpaceGrant_namespaceId_idx" ON "TesterCollectionSpaceGrant"("namespaceId");

-- CreateIndex
CREATE UNIQUE INDEX "TesterCollectionSpaceGrant_collectionId_namespaceId_key" ON "TesterCollectionSpaceGrant"("collectionId", "namespaceId");

-- AddForeignKey
ALTER TABLE "TesterCollectionUserGrant" ADD CONSTRAINT "TesterCollectionUserGrant_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "TesterCollection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterCollectionUserGrant" ADD CONSTRAINT "TesterCollectionUserGrant_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterCollectionUserGrant" ADD CONSTRAINT "TesterCollectionUserGrant_grantedById_fkey" FOREIGN KEY ("grantedById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterCollectionSpaceGrant" ADD CONSTRAINT "TesterCollectionSpaceGrant_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "TesterCollection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterCollectionSpaceGrant" ADD CONSTRAINT "TesterCollectionSpaceGrant_namespaceId_fkey" FOREIGN KEY ("namespaceId") REFERENCES "Namespace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TesterCollectionSpaceGrant" ADD CONSTRAINT "TesterCollectionSpaceGrant_grantedById_fkey" FOREIGN KEY ("grantedById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

