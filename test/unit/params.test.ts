import { describe, expect, expectTypeOf, it } from 'vitest';
import { flattenParams } from '../../src/api/encode.js';
import { apiParams } from '../../src/spec/params.js';
import type { OptionSpec, OptionValues } from '../../src/spec/spec.js';

const OPTIONS = [
  { flags: '--status <status>', param: 'status', description: '' },
  { flags: '--platform <platform>', param: 'platform', description: '', repeatable: true },
  { flags: '--body-file <path>', description: 'read by mon itself: no parameter' },
  { flags: '--beacon-reporting', param: 'beacon_reporting', description: '', negatable: true },
  { flags: '--expires-at <date>', param: 'expires_at', description: '', rule: { type: 'date', epoch: 'start' } },
  { flags: '--timed [when]', param: 'mute_until', description: '', rule: { type: 'when' } },
  { flags: '-p, --per-page <n>', description: '', rule: { type: 'int', min: 1 } },
] as const satisfies readonly OptionSpec[];

describe('apiParams: options to API parameters', () => {
  it('gives every declared parameter in declaration order, undefined where not given, and nothing for options without one', () => {
    const params = apiParams(OPTIONS, { beaconReporting: false, status: 'missing', bodyFile: 'x.md' });
    expect(Object.entries(params)).toEqual([
      ['status', 'missing'],
      ['platform', undefined],
      ['beacon_reporting', false],
      ['expires_at', undefined],
      ['mute_until', undefined],
    ]);
  });

  it('sends a repeatable option given once as one value and given more often as an array', () => {
    expect(flattenParams(apiParams(OPTIONS, { platform: ['mac'] }))).toEqual([['platform', 'mac']]);
    expect(flattenParams(apiParams(OPTIONS, { platform: ['mac', 'linux'] }))).toEqual([
      ['platform[]', 'mac'],
      ['platform[]', 'linux'],
    ]);
    expect(
      flattenParams({ computer: apiParams(OPTIONS, { beaconReporting: true, expiresAt: 1_790_000_000 }) }),
    ).toEqual([
      ['computer[beacon_reporting]', 'true'],
      ['computer[expires_at]', '1790000000'],
    ]);
  });

  it('types each value from its declaration (checked by tsc)', () => {
    type Values = OptionValues<typeof OPTIONS>;
    expectTypeOf<Values['status']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Values['platform']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Values['bodyFile']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Values['beaconReporting']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Values['expiresAt']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Values['timed']>().toEqualTypeOf<number | true | undefined>();
    expectTypeOf<Values['perPage']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<keyof Values>().toEqualTypeOf<
      'status' | 'platform' | 'bodyFile' | 'beaconReporting' | 'expiresAt' | 'timed' | 'perPage'
    >();
  });
});
