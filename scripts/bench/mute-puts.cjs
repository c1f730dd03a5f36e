// The least `plugin mute --from FILE` can cost with undici: the same PUTs, four in flight (as
// mon sends them), each answer read and dropped. No selection read, no plan, no rate ledger, no
// retries, no rows. scripts/bench/mute.mjs has it bundled like dist/mon.cjs and run through a
// copy of bin/mon, as the reference row beside mon's. BENCH_UIDS names the file of uids,
// BENCH_MUTE_TYPE the mute_type sent (ignored, none).
const { readFileSync } = require('node:fs');
const { EnvHttpProxyAgent } = require('undici');

exports.crashLine = (error) => `${error?.message ?? error}\n`;

exports.main = async (_args, { io, env }) => {
  const agent = new EnvHttpProxyAgent();
  const { origin } = new URL(env.MON_BASE_URL);
  const uids = readFileSync(env.BENCH_UIDS, 'utf8').split('\n').filter(Boolean);
  const body = `plugin_result%5Bmute_type%5D=${env.BENCH_MUTE_TYPE}&api_key=${encodeURIComponent(env.MON_API_KEY)}`;
  let next = 0;
  let ok = 0;
  const worker = async () => {
    while (next < uids.length) {
      const uid = uids[next++];
      const response = await agent.request({
        origin,
        path: `/v2.5/plugin_results/${uid}`,
        method: 'PUT',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      await response.body.text();
      if (response.statusCode === 200) ok++;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  io.stdout.write(`${ok}\n`);
  await agent.destroy();
  return ok === uids.length ? 0 : 1;
};
