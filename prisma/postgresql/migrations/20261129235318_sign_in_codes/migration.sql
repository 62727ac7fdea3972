-- CreateTable
CREATE TABLE "SignInCode" (
    "id" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SignInCode_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SignInCode_codeHash_key" ON "SignInCode"("codeHash");

-- AddForeignKey
ALTER TABLE "SignInCode" ADD CONSTRAINT "SignInCode_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

