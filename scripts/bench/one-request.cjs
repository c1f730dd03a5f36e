// The least a one-request command can cost with undici: its proxy-aware agent (as mon's client
// uses it), one GET of the computers, the JSON printed. scripts/bench.mjs bundles it like
// dist/mon.cjs and runs it through a copy of bin/mon, as a reference row beside mon's.
const { EnvHttpProxyAgent } = require('undici');

exports.crashLine = (error) => `${error?.message ?? error}\n`;

exports.main = async (_args, { io, env }) => {
  const url = new URL(`${env.MON_BASE_URL}/v2.5/computers?api_key=${encodeURIComponent(env.MON_API_KEY)}`);
  const agent = new EnvHttpProxyAgent();
  const response = await agent.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET' });
  const computers = JSON.parse(await response.body.text());
  io.stdout.write(`${JSON.stringify(computers, null, 2)}\n`);
  await agent.destroy();
  return response.statusCode === 200 ? 0 : 1;
};
