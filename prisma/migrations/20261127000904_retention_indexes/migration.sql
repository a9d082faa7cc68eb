-- CreateIndex
CREATE INDEX "refresh_tokens_expires_at_idx" ON "refresh_tokens"("expires_at");

-- CreateIndex
CREATE INDEX "webhook_requests_completed_at_idx" ON "webhook_requests"("completed_at");
