import { computers } from './computers.js';
import { groups } from './groups.js';
import { profile } from './profile.js';
import { sandbox } from './sandbox.js';
import type { CommandSpec } from './spec.js';

/** Every top-level command, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = [groups, computers, profile, sandbox];
