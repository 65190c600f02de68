import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { api, orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { fieldIssues } from '../../api/errors.ts';
import { useMe } from '../../api/me.ts';
import { ConfirmDelete } from '../../ui/confirm-delete.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Loading } from '../../ui/loading.tsx';
import { Page } from '../../ui/page.tsx';
import { fieldsOf, updateOf, type PageFields, type StatusPage } from './page-fields.ts';
import { PageDetailsFields } from './page-details-fields.tsx';
import { PublishButton } from './publish-button.tsx';
import { SectionsEditor } from './sections-editor.tsx';
import { SubscribersSection } from './subscribers-section.tsx';
import { LightBadge } from '../../ui/light-badge.tsx';

/** `/status-pages/{id}`: one page's fields and sections, publishing and deleting it. */
export function EditStatusPage() {
  const { id = '' } = useParams();
  const page = useQuery(orpc.statuspage.getPage.queryOptions({ input: { id } }));
  if (page.isPending) return <Loading label="Loading the status page" />;
  if (!page.data) {
    return (
      <Page title="Status page not found">
        <ErrorAlert error={page.error} />
      </Page>
    );
  }
  // Keyed by the page: publishing (which changes the stored page) keeps unsaved edits.
  return <PageEditor key={page.data.id} page={page.data} />;
}

function PageEditor({ page }: { page: StatusPage }) {
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [fields, setFields] = useState<PageFields>(() => fieldsOf(page));
  const [deleting, setDeleting] = useState(false);
  const mayEdit = mayCall(me.data, contracts.statuspage.updatePage);
  const save = useMutation({
    mutationFn: () => api.statuspage.updatePage(updateOf(page.id, fields)),
    // The form shows what was stored (trimmed, cleared), not what was typed.
    onSuccess: (saved) => setFields(fieldsOf(saved)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orpc.statuspage.key() }),
  });
  const change = (next: Partial<PageFields>) => {
    setFields((current) => ({ ...current, ...next }));
    if (save.isSuccess) save.reset();
  };
  const issues = fieldIssues(save.error);
  return (
    <Page
      title={page.title}
      actions={
        <Group gap="xs">
          {page.published && (
            <Button component={Link} to={`/status/${page.slug}`} variant="default">
              Open public page
            </Button>
          )}
          {mayCall(me.data, contracts.statuspage.publishPage) && <PublishButton page={page} />}
          {mayCall(me.data, contracts.statuspage.deletePage) && (
            <Button color="red" variant="light" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          )}
        </Group>
      }
    >
      <Group gap="xs">
        <LightBadge color={page.published ? 'green' : 'gray'}>
          {page.published ? 'Published' : 'Draft'}
        </LightBadge>
        <Text size="sm">
          {page.published ? 'Anyone can read it at ' : 'When published, anyone can read it at '}
          <Anchor component={Link} to={`/status/${page.slug}`}>
            /status/{page.slug}
          </Anchor>
        </Text>
      </Group>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="lg" maw={720}>
          {Object.keys(issues).length === 0 && <ErrorAlert error={save.error} />}
          <PageDetailsFields
            fields={fields}
            issues={issues}
            disabled={!mayEdit}
            onChange={change}
          />
          <SectionsEditor
            sections={fields.sections}
            issues={issues}
            disabled={!mayEdit}
            onChange={(sections) => change({ sections })}
          />
          {mayEdit && (
            <Group gap="sm">
              <Button type="submit" w="fit-content" loading={save.isPending}>
                Save
              </Button>
              <Text role="status" size="sm">
                {save.isSuccess ? 'Saved.' : ''}
              </Text>
            </Group>
          )}
        </Stack>
      </form>
      {mayCall(me.data, contracts.statuspage.getSubscribers) && (
        <SubscribersSection pageId={page.id} />
      )}
      {deleting && (
        <ConfirmDelete
          title="Delete status page"
          onClose={() => setDeleting(false)}
          remove={async () => {
            await api.statuspage.deletePage({ id: page.id });
            await navigate('/status-pages');
          }}
        >
          Delete the status page “{page.title}”? Its address stops answering at once.
        </ConfirmDelete>
      )}
    </Page>
  );
}
