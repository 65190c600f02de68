import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { Page } from '../../ui/page.tsx';
import { GroupsTable } from './groups-table.tsx';
import { SystemsTable } from './systems-table.tsx';

export function CatalogPage() {
  const me = useMe();
  return (
    <Page title="Catalog">
      <SystemsTable mayGrant={mayCall(me.data, contracts.auth.updateResourceAccess)} />
      <GroupsTable />
    </Page>
  );
}
