// The floor of a one-request command: the same GET of the computers as `mon computers list
// --json`, with node:http alone, the body parsed and the JSON printed as mon prints it. Run as a
// plain script (no bundle, no cache): this is the yardstick of the one-request row.
'use strict';
const http = require('node:http');

const url = new URL(
  `${process.env.MON_BASE_URL}/v2.5/computers?api_key=${encodeURIComponent(process.env.MON_API_KEY)}`,
);
http
  .get(url, { agent: false }, (response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => {
      const computers = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      process.stdout.write(`${JSON.stringify(computers, null, 2)}\n`, () =>
        process.exit(response.statusCode === 200 ? 0 : 1),
      );
    });
  })
  .on('error', (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
