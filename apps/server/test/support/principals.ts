import { catalogAccess } from '@checkline/catalog';
import { testPrincipal } from '@checkline/core/testing';

/** Principals for surface tests that inject callers by bearer token. */
export const testPrincipals = {
  manager: testPrincipal([catalogAccess.read, catalogAccess.manage]),
  reader: testPrincipal([catalogAccess.read]),
  nobody: testPrincipal([]),
};
