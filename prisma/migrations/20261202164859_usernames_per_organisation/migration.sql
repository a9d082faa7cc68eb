-- DropIndex
DROP INDEX "users_username_key";

-- CreateIndex
CREATE UNIQUE INDEX "users_organisation_id_username_key" ON "users"("organisation_id", "username");
