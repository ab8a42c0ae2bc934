import { SchemaScript } from '../sql/migrations';

export const JOBS_SCHEMA: SchemaScript = {
  name: 'jobs',
  sql: `
CREATE TABLE IF NOT EXISTS jobs (
  job_id text PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_error text,
  done_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (due_at) WHERE done_at IS NULL;
ALTER TABLE jobs SET (fillfactor = 70);
`,
};
