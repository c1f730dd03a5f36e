/** The seeded groups: the primary subscriber's nine, and the second subscriber's one. */
export interface GroupSpec {
  name: string;
  domain: string;
  code: string;
  /** share of the primary subscriber's computers (0 for an empty group) */
  share: number;
  description: string | null;
  hidden: boolean;
}

/** Share of the computers in each group: very different sizes, one empty group. */
export const PRIMARY_GROUPS: GroupSpec[] = [
  {
    name: 'Acme Design',
    domain: 'acmedesign.example',
    code: 'ACME',
    share: 0.33,
    description: 'Design studio, two floors. Contact Dana before rebooting render nodes.',
    hidden: false,
  },
  {
    name: 'Northwind Clinic',
    domain: 'northwindclinic.example',
    code: 'NWC',
    share: 0.21,
    description: 'Medical practice: front desk, exam rooms and the records server.',
    hidden: false,
  },
  {
    name: 'Summit Engineering',
    domain: 'summit-eng.example',
    code: 'SUM',
    share: 0.15,
    description: 'Build servers and engineering workstations.',
    hidden: false,
  },
  {
    name: 'Blue Harbor Legal',
    domain: 'blueharborlegal.example',
    code: 'BHL',
    share: 0.1,
    description: null,
    hidden: false,
  },
  {
    name: 'Café Lumière',
    domain: 'cafelumiere.example',
    code: 'CAFE',
    share: 0.07,
    description: 'Two cafés and the roastery. Point-of-sale Macs at the counters.',
    hidden: false,
  },
  {
    name: "O'Brien & Sons Plumbing",
    domain: 'obrienplumbing.example',
    code: 'OBS',
    share: 0.05,
    description: "Office laptops; the vans' tablets are not monitored.",
    hidden: false,
  },
  {
    name: 'Atelier Hélène Dubois',
    domain: 'atelier-dubois.example',
    code: 'AHD',
    share: 0.03,
    description: null,
    hidden: false,
  },
  {
    name: 'Old Office (retired)',
    domain: 'acmedesign.example',
    code: 'OLD',
    share: 0.06,
    description: 'Machines from the closed Elm Street office, kept for reference.',
    hidden: true,
  },
  {
    name: 'Staging – new hires',
    domain: 'acmedesign.example',
    code: 'NEW',
    share: 0,
    description: 'Empty until the next intake: enrol new machines here first.',
    hidden: false,
  },
];

/** The second subscriber's only group: a small separate data set whose items are 403 for the primary key. */
export const OTHER_GROUP: GroupSpec = {
  name: 'Contoso Labs',
  domain: 'contoso.example',
  code: 'CON',
  share: 1,
  description: 'Another subscriber.',
  hidden: false,
};
