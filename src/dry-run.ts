import type { ApiClient, ApiResponse, PreparedRequest } from './api/client.js';
import type { OutputFormat, Sink } from './output/types.js';

/** What a DryRun shows through: the context it belongs to (its client, its notices, its stdout). */
export interface DryRunHost {
  client(): Promise<ApiClient>;
  notice(message: string): void;
  io: { stdout: Sink };
}

/**
 * The one place that decides a dry run (--dry-run), made once per context from the global
 * options (Context.dryRun). A request to be sent goes through `send` (or, for a command that
 * sends several, `shows` first): under --dry-run it is shown, key redacted, and nothing is sent;
 * otherwise it is confirmed when the verb asks for that, then sent. A change to this machine
 * goes through `changesNothing`.
 */
export class DryRun {
  /** --dry-run was given: nothing is sent (but the reads a plan needs) and nothing is changed. */
  readonly on: boolean;
  private readonly format: OutputFormat;

  constructor(
    globals: { readonly dryRun: boolean; readonly output: OutputFormat },
    private readonly host: DryRunHost,
  ) {
    this.on = DryRun.asked(globals);
    this.format = globals.output;
  }

  /** Whether the command line asks for a dry run: for what is set up before a context exists (--jq, --output-file). */
  static asked(globals: { readonly dryRun: boolean }): boolean {
    return globals.dryRun;
  }

  /**
   * Under --dry-run, prints the request it stands for (or the requests, in order, for a command
   * that sends several), key redacted, and says on stderr that `unsent`; true then, when nothing
   * must be sent. `note` says what the requests are, when that is not plain.
   */
  async shows(
    prepared: PreparedRequest | readonly PreparedRequest[],
    note?: string,
    unsent = 'nothing was sent',
  ): Promise<boolean> {
    if (!this.on) return false;
    const client = await this.host.client();
    const shown = (Array.isArray(prepared) ? prepared : [prepared]).map((one: PreparedRequest) => client.describe(one));
    this.host.io.stdout.write(`${this.lines(shown).join('\n')}\n`);
    this.host.notice(`dry run: ${unsent}${note ? ` (${note})` : ''}`);
    return true;
  }

  /**
   * One request: under --dry-run shown (undefined is returned, nothing is sent); otherwise
   * `confirm` first when the verb asks (a delete on a terminal), then sent.
   */
  async send(prepared: PreparedRequest, confirm?: () => Promise<void>): Promise<ApiResponse | undefined> {
    if (await this.shows(prepared)) return undefined;
    await confirm?.();
    return (await this.host.client()).send(prepared);
  }

  /**
   * A change to this machine, not the account (profiles, --changes state, the sandbox's data):
   * under --dry-run nothing is changed and the notice says what would have been; true then,
   * when the verb must stop there.
   */
  changesNothing(wouldDo: string): boolean {
    if (!this.on) return false;
    this.host.notice(`dry run: nothing was changed (this would ${wouldDo})`);
    return true;
  }

  /** The requests as --dry-run prints them: JSON for -o json and ndjson, else the request line and its form. */
  private lines(shown: readonly { method: string; url: string; form: [string, string][] }[]): string[] {
    if (this.format === 'json' || this.format === 'ndjson') {
      const requests = shown.map((one) => ({ method: one.method, url: one.url, form: Object.fromEntries(one.form) }));
      return this.format === 'json'
        ? [JSON.stringify(requests.length === 1 ? requests[0] : requests, null, 2)]
        : requests.map((one) => JSON.stringify(one));
    }
    return shown.flatMap((one) => [`${one.method} ${one.url}`, ...one.form.map(([key, value]) => `${key}=${value}`)]);
  }
}
