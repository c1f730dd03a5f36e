/**
 * The living fleet (`mon sandbox serve --live`): simulated time passes at a chosen speed and the
 * demo fleet behaves like a real one. Computers report on their hourly schedule, a few stop
 * reporting (and go missing once past their `report_missing_after`) and some come back, plugin
 * results move between OK, Warning and Alert (a disk fills over days, updates pend and get
 * installed, a backup ages, a SMART error appears and stays), new computers enrol. Timed mutes
 * end and expirations pass by themselves: they are dates, read against the simulated clock.
 *
 * Deterministic: time advances in fixed steps of simulated time, and every random draw is a hash
 * of (seed, step, computer, plugin), never of when a request came or how far one catch-up went.
 * So the same seed and the same simulated start give the same fleet at the same simulated time,
 * however the clock was stepped. Writes of clients (mutes, names) change no draw.
 */
import { PRIMARY_ACCOUNT, type ComputerRec, type PluginResultRec, type PluginStatus } from './model.js';
import { Prng } from './prng.js';
import { enrolComputer, pluginDetails } from './seed.js';
import type { Store } from './store.js';

const HOUR = 3_600;
const DAY = 86_400;
/** One step of simulated time: every computer's schedule is checked once per step. */
export const STEP_SECONDS = 300;

/** A plugin result that changed state, as the webhooks report it. */
export interface Transition {
  result: PluginResultRec;
  computer: ComputerRec;
  previous: PluginStatus;
  status: PluginStatus;
  /** simulated epoch seconds of the change */
  atSec: number;
  /** 'simulated' (the fleet moved) or 'forced' (`mon sandbox trigger`) */
  cause: 'simulated' | 'forced';
}

/** Rates per day; each is drawn at a computer's hourly report as rate / 24. */
const RATES = {
  /** a reporting computer stops reporting */
  goSilent: 0.01,
  /** share of the silent computers that come back at all */
  returnShare: 0.6,
  /** a silent computer that will come back does */
  comeBack: 0.25,
  /** updates become pending / get installed / a pending one that fails turns Alert */
  updatesPend: 0.15,
  updatesInstall: 0.35,
  /** a backup stops running / runs again */
  backupStops: 0.03,
  backupResumes: 0.3,
  /** a SMART error appears (and stays); it gets worse */
  smartError: 0.0015,
  smartWorse: 0.02,
  /** a full disk is cleaned up */
  diskCleaned: 0.3,
  /** any other check: OK to Warning, Warning to OK, Warning to Alert, Alert to OK */
  warn: 0.02,
  clear: 0.4,
  escalate: 0.05,
  resolve: 0.3,
  /** computers enrolling per day, per computer of the fleet (at least ENROL_MIN a day) */
  enrolPerComputer: 0.003,
} as const;
const ENROL_MIN = 0.2;

const UPDATES = new Set(['macos_updates', 'windows_update', 'package_updates']);

/** murmur3's finaliser over a running hash: fast, well mixed, no state. */
function mix(h: number, v: number): number {
  h = Math.imul(h ^ v, 0x9e3779b1) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** A uniform draw in [0, 1) that depends only on its four inputs. */
function draw(a: number, b: number, c: number, d: number): number {
  return mix(mix(mix(mix(0x1b873593, a), b), c), d) / 4294967296;
}

function hashText(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** What the simulation keeps about a computer besides its record. */
interface ComputerSim {
  key: number;
  /** second of the hour it reports at */
  phase: number;
  online: boolean;
  /** a silent computer that will report again */
  returns: boolean;
  /** share of the boot volume in use, and how much it grows a day */
  fill: number;
  growth: number;
}

/** What the simulation keeps about a plugin result: since when updates pend or a backup has not run. */
interface ResultSim {
  key: number;
  since: number;
  /** a backup that has stopped running (it reads OK for its first days) */
  stopped: boolean;
}

export interface LiveOptions {
  seed: number;
  /** simulated seconds per real second (60: an hour a minute) */
  speed: number;
  /** the simulated clock's start, ms */
  startMs: number;
  /** the real clock, ms (Date.now; tests give their own) */
  realNow: () => number;
  onTransition?: (transition: Transition) => void;
}

export class LiveFleet {
  readonly speed: number;
  readonly startMs: number;
  private readonly seed: number;
  private readonly realNow: () => number;
  private readonly realStart: number;
  /** simulated ms added by explicit steps (`trigger tick`) */
  private steppedMs = 0;
  /** steps already simulated */
  private done = 0;
  private readonly computers = new Map<string, ComputerSim>();
  private readonly results = new Map<string, ResultSim>();
  private readonly onTransition: ((transition: Transition) => void) | undefined;

  constructor(options: LiveOptions) {
    this.seed = options.seed >>> 0;
    this.speed = options.speed;
    this.startMs = options.startMs;
    this.realNow = options.realNow;
    this.realStart = options.realNow();
    this.onTransition = options.onTransition;
  }

  /** The simulated clock, ms: what every answer of a live sandbox is computed against. */
  now = (): number => Math.floor(this.startMs + (this.realNow() - this.realStart) * this.speed + this.steppedMs);

  /** Moves the simulated clock forward by `ms` (a test or `mon sandbox trigger tick`); catch up after. */
  step(ms: number): void {
    this.steppedMs += ms;
  }

  /** Simulates every whole step up to the simulated now; returns the transitions it made. */
  catchUp(store: Store): Transition[] {
    const target = Math.floor((this.now() - this.startMs) / 1000 / STEP_SECONDS);
    const out: Transition[] = [];
    while (this.done < target) {
      this.done++;
      this.simulateStep(store, this.done, out);
    }
    return out;
  }

  /** A disk the seed shows in Warning or Alert is that full; any other at most 85 %. */
  private seededFill(store: Store, c: ComputerRec, fill: number): number {
    const disk = store.resultsOf(c.uid).find((r) => r.slug === 'disk_space');
    return disk?.status === 'Alert' ? 0.985 : disk?.status === 'Warning' ? 0.93 : fill;
  }

  private computerSim(store: Store, c: ComputerRec, endSec: number): ComputerSim {
    let sim = this.computers.get(c.uid);
    if (sim) return sim;
    const key = hashText(c.uid);
    const capacity = c.boot_volume_capacity_in_bytes ?? 0;
    const used = c.boot_volume_usage_in_bytes ?? 0;
    sim = {
      key,
      phase: mix(key, this.seed) % HOUR,
      // silent for two days or more when the simulation begins: one of the seed's silent computers
      online: endSec - c.last_report < 2 * DAY,
      returns: draw(this.seed, key, 1, 0) < RATES.returnShare,
      fill: this.seededFill(store, c, capacity > 0 ? Math.min(used / capacity, 0.85) : 0.5),
      growth: 0.002 + draw(this.seed, key, 2, 0) * 0.008,
    };
    this.computers.set(c.uid, sim);
    return sim;
  }

  private resultSim(r: PluginResultRec, atSec: number): ResultSim {
    let sim = this.results.get(r.uid);
    if (!sim) {
      // how long the seeded state has lasted: a Warning backup is 5 to 21 days old, an Alert one older
      sim = {
        key: hashText(r.uid),
        since: r.status === 'Alert' ? atSec - 25 * DAY : r.status === 'Warning' ? atSec - 8 * DAY : atSec,
        stopped: r.status === 'Warning' || r.status === 'Alert',
      };
      this.results.set(r.uid, sim);
    }
    return sim;
  }

  private simulateStep(store: Store, k: number, out: Transition[]): void {
    const endSec = Math.floor(this.startMs / 1000) + k * STEP_SECONDS;
    const startSec = endSec - STEP_SECONDS;
    const saved: (ComputerRec | PluginResultRec)[] = [];
    const items = store.computers.items;
    for (let i = 0; i < items.length; i++) {
      const c = items[i] as ComputerRec;
      if (c.account !== PRIMARY_ACCOUNT || c.agent_removed) continue;
      const sim = this.computerSim(store, c, startSec);
      // the report slot of this step, if the hour's slot falls in (startSec, endSec]
      const slot = Math.floor((endSec - sim.phase) / HOUR) * HOUR + sim.phase;
      if (slot <= startSec) continue;
      const hour = Math.floor(slot / HOUR);
      if (!sim.online) {
        if (!sim.returns || draw(this.seed, sim.key, hour, 3) >= RATES.comeBack / 24) continue;
        sim.online = true;
      } else if (draw(this.seed, sim.key, hour, 4) < RATES.goSilent / 24) {
        sim.online = false;
        sim.returns = draw(this.seed, sim.key, hour, 5) < RATES.returnShare;
        continue;
      }
      this.report(store, c, sim, slot, hour, saved, out);
    }
    this.enrol(store, k, endSec, saved);
    if (saved.length > 0) store.commit({ saved });
  }

  /** One report of a computer: its times move and each visible check may change state. */
  private report(
    store: Store,
    c: ComputerRec,
    sim: ComputerSim,
    slot: number,
    hour: number,
    saved: (ComputerRec | PluginResultRec)[],
    out: Transition[],
  ): void {
    c.last_report = slot;
    c.last_update = slot;
    sim.fill = Math.min(1, sim.fill + sim.growth / 24);
    if (c.boot_volume_capacity_in_bytes !== null)
      c.boot_volume_usage_in_bytes = Math.round(c.boot_volume_capacity_in_bytes * sim.fill);
    saved.push(c);
    for (const r of store.resultsOf(c.uid)) {
      r.last_run = slot;
      saved.push(r);
      if (!r.visible || r.status === 'Informational') continue;
      const rs = this.resultSim(r, slot);
      const next = this.nextStatus(r, sim, rs, slot, draw(this.seed, rs.key, hour, 6));
      if (next !== r.status) out.push(this.change(store, c, r, next, slot, 'simulated'));
    }
  }

  private nextStatus(r: PluginResultRec, sim: ComputerSim, rs: ResultSim, slot: number, u: number): PluginStatus {
    const s = r.status;
    if (r.slug === 'disk_space') {
      if (s === 'Alert' && u < RATES.diskCleaned / 24) sim.fill = 0.55;
      return sim.fill >= 0.98 ? 'Alert' : sim.fill >= 0.9 ? 'Warning' : 'OK';
    }
    if (r.slug === 'smart_status') {
      if (s === 'OK') return u < RATES.smartError / 24 ? 'Warning' : 'OK';
      return s === 'Warning' && u < RATES.smartWorse / 24 ? 'Alert' : s;
    }
    if (UPDATES.has(r.slug)) {
      if (s === 'OK') {
        if (u < RATES.updatesPend / 24) rs.since = slot;
        return u < RATES.updatesPend / 24 ? 'Warning' : 'OK';
      }
      if (u < RATES.updatesInstall / 24) return 'OK';
      return slot - rs.since > 21 * DAY ? 'Alert' : s;
    }
    if (r.slug === 'time_machine') {
      // a stopped backup reads OK for five days, then ages into Warning and Alert
      if (!rs.stopped && u < RATES.backupStops / 24) {
        rs.stopped = true;
        rs.since = slot;
      } else if (rs.stopped && u < RATES.backupResumes / 24) rs.stopped = false;
      const age = rs.stopped ? slot - rs.since : 0;
      return age > 21 * DAY ? 'Alert' : age > 5 * DAY ? 'Warning' : 'OK';
    }
    if (s === 'OK') return u < RATES.warn / 24 ? 'Warning' : 'OK';
    if (s === 'Warning')
      return u < RATES.clear / 24 ? 'OK' : u < (RATES.clear + RATES.escalate) / 24 ? 'Alert' : 'Warning';
    return u < RATES.resolve / 24 ? 'OK' : 'Alert';
  }

  private change(
    store: Store,
    c: ComputerRec,
    r: PluginResultRec,
    status: PluginStatus,
    atSec: number,
    cause: Transition['cause'],
  ): Transition {
    const previous = r.status;
    r.status = status;
    r.details = pluginDetails(r.slug, status) ?? r.details;
    r.last_run = atSec;
    c.has_issue = store.resultsOf(c.uid).some((x) => x.visible && x.status === 'Alert' && x.mute === null);
    const transition: Transition = { result: r, computer: c, previous, status, atSec, cause };
    this.onTransition?.(transition);
    return transition;
  }

  /** Now and then a new computer enrols (in the group new machines go to). */
  private enrol(store: Store, k: number, endSec: number, saved: (ComputerRec | PluginResultRec)[]): void {
    const fleet = store.computers.items.filter((c) => c.account === PRIMARY_ACCOUNT).length;
    const perDay = Math.max(ENROL_MIN, fleet * RATES.enrolPerComputer);
    if (draw(this.seed, k, 7, 0) >= (perDay * STEP_SECONDS) / DAY) return;
    const rng = new Prng(mix(this.seed, k));
    let made = enrolComputer(rng, store.groups.items, fleet, endSec);
    // uids come from the step's own draws: another on a (vanishingly rare) clash
    while (store.computers.has(made.computer.uid) || store.computerByClientId(made.computer.client_id))
      made = enrolComputer(rng, store.groups.items, fleet, endSec);
    store.put(made.computer);
    for (const r of made.pluginResults) store.put(r);
    saved.push(made.computer, ...made.pluginResults);
  }

  /** `trigger missing`: the computer stops reporting for good and reads as missing now. */
  forceMissing(store: Store, c: ComputerRec, nowSec: number): void {
    const sim = this.computerSim(store, c, nowSec);
    sim.online = false;
    sim.returns = false;
  }

  /** `trigger alert|warning|ok`: the result changes state now, with its event. */
  force(store: Store, c: ComputerRec, r: PluginResultRec, status: PluginStatus, nowSec: number): Transition {
    // the simulation's own state agrees, so the next report keeps the forced state going
    const rs = this.resultSim(r, nowSec);
    rs.since = status === 'Alert' ? nowSec - 25 * DAY : status === 'Warning' ? nowSec - 8 * DAY : nowSec;
    rs.stopped = status !== 'OK';
    if (r.slug === 'disk_space')
      this.computerSim(store, c, nowSec).fill = status === 'Alert' ? 0.985 : status === 'Warning' ? 0.93 : 0.6;
    const transition = this.change(store, c, r, status, nowSec, 'forced');
    store.commit({ saved: [c, r] });
    return transition;
  }
}
