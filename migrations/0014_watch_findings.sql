-- Issue 23 part 5: watches say what changed. Each charged execution whose findings added or removed
-- a cited claim counts here, so the org audit can count executions with changes from the mirror.
-- Written by the watch object with the rest of its row (src/durable-objects/watch-object.ts).
ALTER TABLE watches ADD COLUMN executions_with_changes INTEGER NOT NULL DEFAULT 0;
