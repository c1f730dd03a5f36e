// The least `computers list --all -o ndjson` can cost with undici: 100 pages fetched four at a
// time with its proxy-aware agent, each parsed and printed as it comes, in order. No response
// checks, no rate ledger, no retries, and memory not held flat. scripts/bench.mjs bundles it
// like dist/mon.cjs and runs it through a copy of bin/mon, as a reference row beside mon's.
const { EnvHttpProxyAgent } = require('undici');

exports.crashLine = (error) => `${error?.message ?? error}\n`;

exports.main = async (_args, { io, env }) => {
  const agent = new EnvHttpProxyAgent();
  const { origin } = new URL(env.MON_BASE_URL);
  const key = encodeURIComponent(env.MON_API_KEY);
  const page = async (n) => {
    const response = await agent.request({
      origin,
      path: `/v2.5/computers?page=${n}&per_page=100&api_key=${key}`,
      method: 'GET',
    });
    return { pages: Number(response.headers['x-total-pages']), items: JSON.parse(await response.body.text()) };
  };
  const first = await page(1);
  io.stdout.write(first.items.map((item) => `${JSON.stringify(item)}\n`).join(''));
  const inFlight = [];
  let next = 2;
  const refill = () => {
    while (inFlight.length < 4 && next <= first.pages) inFlight.push(page(next++));
  };
  refill();
  while (inFlight.length > 0) {
    const { items } = await inFlight.shift();
    refill();
    io.stdout.write(items.map((item) => `${JSON.stringify(item)}\n`).join(''));
  }
  await agent.destroy();
  return 0;
};
