import { describe, expect, it } from 'vitest';
import { hostMatches, refusedServiceUrl } from './host-patterns.ts';

describe('hostMatches', () => {
  it('matches subdomains for *.domain, not the bare domain or a lookalike', () => {
    expect(hostMatches('prod-12.westeurope.logic.azure.com', '*.logic.azure.com')).toBe(true);
    expect(hostMatches('logic.azure.com', '*.logic.azure.com')).toBe(false);
    expect(hostMatches('evillogic.azure.com', '*.logic.azure.com')).toBe(false);
    expect(hostMatches('discord.com', 'discord.com')).toBe(true);
    expect(hostMatches('anything.example', '*')).toBe(true);
  });
});

describe('refusedServiceUrl', () => {
  const rules = { hosts: ['*.webhook.office.com'], requireHttps: true };

  it('accepts an https URL on an allowed host', () => {
    expect(refusedServiceUrl('https://acme.webhook.office.com/webhookb2/x', rules)).toBeUndefined();
  });

  it('refuses plain http, other schemes, credentials and other hosts', () => {
    expect(refusedServiceUrl('http://acme.webhook.office.com/x', rules)).toContain('https');
    expect(
      refusedServiceUrl('ftp://acme.webhook.office.com/x', { ...rules, requireHttps: false }),
    ).toContain('https');
    expect(refusedServiceUrl('https://u:p@acme.webhook.office.com/x', rules)).toContain(
      'credentials',
    );
    expect(refusedServiceUrl('https://webhook.office.com.evil.example/x', rules)).toContain(
      'not among',
    );
    expect(refusedServiceUrl('not a url', rules)).toContain('not valid');
  });
});
