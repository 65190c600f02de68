import { describe, expect, it } from 'vitest';
import { createDomainMap } from './custom-domains.ts';

describe('the custom-domain map', () => {
  it('loads once for concurrent askers, again after an invalidation or past its age', async () => {
    let clock = 0;
    let loads = 0;
    let domains = new Map([['status.acme.example', 'acme']]);
    const map = createDomainMap({
      maxAgeMs: 1_000,
      now: () => clock,
      load: () => {
        loads += 1;
        return Promise.resolve(domains);
      },
    });
    const answers = await Promise.all([
      map.slugFor('status.acme.example'),
      map.slugFor('other.example'),
    ]);
    expect(answers).toEqual(['acme', undefined]);
    expect(loads).toBe(1);

    domains = new Map([['status.two.example', 'acme']]);
    expect(await map.slugFor('status.acme.example')).toBe('acme');
    map.invalidate();
    expect(await map.slugFor('status.acme.example')).toBeUndefined();
    expect(loads).toBe(2);
    clock += 1_001;
    expect(await map.slugFor('status.two.example')).toBe('acme');
    expect(loads).toBe(3);
  });
});
