export const PROJECTION_GROUPS = {
  /** The read models the API answers from: rebuildable, blue/green, while the service runs. */
  readModels: 'read-models',
  /** Schedules side-effect jobs (provider calls, webhooks): never rebuilt or replayed. */
  reactions: 'reactions',
} as const;
