import { deleteCommand, listCommand, objectCommand } from './actions.js';
import type { View } from './view.js';
import { CATALOGUE_FIELDS } from './fields.js';
import { verb, type ResourceSpec, type VerbSpec } from '../spec/spec.js';

/**
 * Expiration manufacturers and expiration products: the API gives both the same shape under two
 * paths (api-v2.5, Endpoints > Expiration manufacturers and expiration products), so one factory
 * declares both resources.
 */
interface CatalogueKind {
  /** Command name: 'expiration-manufacturers'. */
  name: string;
  /** Short alias users type: 'manufacturers'. */
  alias: string;
  /** One item in words: 'expiration manufacturer'. */
  noun: string;
  /** The route names' prefix in src/api/endpoints.ts. */
  routes: 'expirationManufacturers' | 'expirationProducts';
  /** Body key: expiration_manufacturer[name]. */
  bodyKey: string;
  /** uid prefix: em_. */
  prefix: string;
  /** What src/resolve calls it: a name or slug given for the uid is looked up. */
  resolve: 'manufacturer' | 'product';
  /** Sample values for the examples. */
  sample: { uid: string; name: string; rename: string };
}

export const CATALOGUE_VIEW: View = {
  columns: [
    { key: 'uid' },
    { key: 'name', maxWidth: 40 },
    { key: 'slug' },
    { key: 'created_at', header: 'CREATED', kind: 'time' },
  ],
  fields: CATALOGUE_FIELDS,
};

// "<body key>[name] string max 191 required" (api-v2.5); over it the API answers 500.
const NAME_MAX = 191;

/** The words and declarations every verb of one catalogue shares. */
function wordsOf(kind: CatalogueKind) {
  const { noun, prefix } = kind;
  return {
    kind,
    noun,
    plural: `${noun}s`,
    capital: noun.charAt(0).toUpperCase() + noun.slice(1),
    article: /^[aeiou]/.test(noun) ? 'an' : 'a',
    mon: `mon ${kind.name}`,
    uidArg: {
      name: 'uid',
      description: `the ${noun}: its uid (${prefix}…), its slug or its exact name`,
      rule: { type: 'text', max: NAME_MAX, nonEmpty: true },
      resolve: kind.resolve,
    },
    nameOption: {
      flags: '--name <name>',
      param: 'name',
      description: `${noun} name (required)`,
      rule: { type: 'text', max: NAME_MAX, nonEmpty: true },
    },
  } as const;
}

type Words = ReturnType<typeof wordsOf>;

function catalogueResource(kind: CatalogueKind): ResourceSpec {
  const words = wordsOf(kind);
  return {
    name: kind.name,
    aliases: [kind.alias],
    summary: `List, show, create, rename and delete ${kind.alias}`,
    verbs: [listVerb(words), getVerb(words), createVerb(words), updateVerb(words), deleteVerb(words)],
  };
}

function listVerb({ kind, plural, mon }: Words): VerbSpec {
  return verb({
    name: 'list',
    route: `${kind.routes}.list`,
    aliases: ['ls'],
    summary: `List ${plural}, sorted by name`,
    list: true,
    fields: CATALOGUE_FIELDS,
    examples: [`${mon} list`, `mon ${kind.alias} list --all -o csv`],
    run: ({ opts }, ctx) =>
      listCommand(
        ctx,
        `${kind.routes}.list`,
        {},
        { ...CATALOGUE_VIEW, changes: { noun: plural, compare: ['name', 'slug'] } },
        opts,
      ),
  });
}

function getVerb({ kind, noun, mon, uidArg }: Words): VerbSpec {
  const { sample } = kind;
  return {
    name: 'get',
    route: `${kind.routes}.get`,
    aliases: ['show'],
    summary: `Show one ${noun}`,
    args: [uidArg],
    fields: CATALOGUE_FIELDS,
    examples: [`${mon} get ${sample.uid}`, `${mon} get ${sample.uid} --json`],
    run: ({ args }, ctx) =>
      objectCommand(ctx, `${kind.routes}.get`, { path: { uid: args.uid! } }, CATALOGUE_VIEW).then(() => undefined),
  };
}

function createVerb({ kind, noun, capital, article, mon, nameOption }: Words): VerbSpec {
  return {
    name: 'create',
    route: `${kind.routes}.create`,
    summary: `Create ${article} ${noun}`,
    description: 'Its slug is derived from the name by the service.',
    fields: CATALOGUE_FIELDS,
    options: [nameOption],
    constraints: { exactlyOne: [['name']] },
    examples: [`${mon} create --name "${kind.sample.name}"`],
    run: ({ params }, ctx) =>
      objectCommand(
        ctx,
        `${kind.routes}.create`,
        { body: { [kind.bodyKey]: params } },
        CATALOGUE_VIEW,
        (item) => `${capital} ${String(item.name)} (${String(item.uid)}) created.`,
      ).then(() => undefined),
  };
}

function updateVerb({ kind, noun, capital, article, mon, uidArg, nameOption }: Words): VerbSpec {
  const { sample } = kind;
  return {
    name: 'update',
    route: `${kind.routes}.update`,
    summary: `Rename ${article} ${noun}`,
    args: [uidArg],
    fields: CATALOGUE_FIELDS,
    options: [{ ...nameOption, description: `new ${noun} name (required)` }],
    constraints: { exactlyOne: [['name']] },
    examples: [`${mon} update ${sample.uid} --name "${sample.rename}"`],
    run: ({ args, params }, ctx) =>
      objectCommand(
        ctx,
        `${kind.routes}.update`,
        { path: { uid: args.uid! }, body: { [kind.bodyKey]: params } },
        CATALOGUE_VIEW,
        () => `${capital} ${args.uid!} updated.`,
      ).then(() => undefined),
  };
}

function deleteVerb({ kind, noun, article, mon, uidArg }: Words): VerbSpec {
  const { sample } = kind;
  return {
    name: 'delete',
    jsonOutput: false,
    route: `${kind.routes}.delete`,
    aliases: ['rm'],
    summary: `Delete ${article} ${noun} for good`,
    description: 'Asks for confirmation on a terminal; from a script, add --yes.',
    args: [uidArg],
    examples: [`${mon} delete ${sample.uid}`, `${mon} delete ${sample.uid} --yes`],
    run: ({ args }, ctx) => {
      const uid = args.uid!;
      return deleteCommand(ctx, `${kind.routes}.delete`, { path: { uid } }, async () => {
        const { data } = await (await ctx.client()).call(`${kind.routes}.get`, { path: { uid } });
        return `${noun} ${uid} (${String((data as Record<string, unknown>).name)})`;
      });
    },
  };
}

/** Expiration manufacturers (api-v2.5, Endpoints > Expiration manufacturers and expiration products). */
export const expirationManufacturers = catalogueResource({
  name: 'expiration-manufacturers',
  alias: 'manufacturers',
  noun: 'expiration manufacturer',
  routes: 'expirationManufacturers',
  bodyKey: 'expiration_manufacturer',
  prefix: 'em_',
  resolve: 'manufacturer',
  sample: { uid: 'em_4a2f', name: 'Apple', rename: 'Apple Inc.' },
});

/** Expiration products (api-v2.5, Endpoints > Expiration manufacturers and expiration products). */
export const expirationProducts = catalogueResource({
  name: 'expiration-products',
  alias: 'products',
  noun: 'expiration product',
  routes: 'expirationProducts',
  bodyKey: 'expiration_product',
  prefix: 'ep_',
  resolve: 'product',
  sample: { uid: 'ep_7c1d9e', name: 'AppleCare+', rename: 'AppleCare+ for Mac' },
});
