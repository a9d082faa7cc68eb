-- CreateIndex
CREATE INDEX "contacts_search_text_trgm" ON "contacts" USING GIN ("search_text" gin_trgm_ops);
