import { api } from './api.js';
import { changes } from './changes.js';
import { history } from './history.js';
import { expirationManufacturers, expirationProducts } from './catalogue.js';
import { completeHelper, completion } from './completion.js';
import { computers } from './computers.js';
import { events } from './events.js';
import { expirations } from './expirations.js';
import { alerts } from './fleet.js';
import { status } from './status.js';
import { groups } from './groups.js';
import { metrics } from './metrics.js';
import { notes } from './notes.js';
import { plugin } from './plugin.js';
import { profile } from './profile.js';
import { report } from './report.js';
import { sandbox } from './sandbox.js';
import type { CommandSpec } from '../spec/spec.js';
import { users } from './users.js';
import { version } from './version.js';

/** Every top-level command, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  groups,
  computers,
  expirations,
  expirationManufacturers,
  expirationProducts,
  notes,
  plugin,
  users,
  alerts,
  status,
  metrics,
  report,
  history,
  events,
  changes,
  api,
  profile,
  sandbox,
  completion,
  version,
  completeHelper,
];
