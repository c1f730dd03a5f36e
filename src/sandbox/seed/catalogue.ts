/** The expiration manufacturers and products of the primary subscriber, and which support contract a serial kind has. */
import { LINUX_MODELS, MAC_MODELS, type ModelSpec, WINDOWS_MODELS } from './models.js';

export const MANUFACTURERS = ['Apple', 'Microsoft', 'Adobe', 'Dell', 'Lenovo', 'JetBrains'];
export const PRODUCTS = [
  'AppleCare+ for Mac',
  'Microsoft 365 Business Premium',
  'Adobe Creative Cloud All Apps',
  'Dell ProSupport Plus',
  'Lenovo Premier Support',
  'JetBrains All Products Pack',
  'Windows Server 2022 Standard',
];

/** The support contract of a computer by the kind of its serial number: only these carry one. */
export const SUPPORT: Partial<Record<ModelSpec['serial'], { maker: string; product: string }>> = {
  apple: { maker: 'Apple', product: 'AppleCare+ for Mac' },
  dell: { maker: 'Dell', product: 'Dell ProSupport Plus' },
  lenovo: { maker: 'Lenovo', product: 'Lenovo Premier Support' },
};
export const SERIAL_KIND = new Map<string, ModelSpec['serial']>(
  [...MAC_MODELS, ...WINDOWS_MODELS, ...LINUX_MODELS].map((m) => [m.name, m.serial]),
);
