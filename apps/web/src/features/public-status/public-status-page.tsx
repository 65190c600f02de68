import { Anchor, Center, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { Loading } from '../../ui/loading.tsx';
import { fetchPublicPage, publicPageUrls, type PublicPage } from './fetch-public-page.ts';
import { IncidentCard } from './incident-card.tsx';
import { MaintenanceCard } from './maintenance-card.tsx';
import { PageHeader } from './page-header.tsx';
import { SectionCard } from './section-card.tsx';
import { SubscribeForm } from './subscribe-form.tsx';
import { useFeedLink } from './use-feed-link.ts';

/** A titled part of the page, shown only when it has something. */
function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack component="section" aria-labelledby={id} gap="sm">
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function PublicPageBody({ page }: { page: PublicPage }) {
  const urls = publicPageUrls(page.slug);
  useFeedLink(urls.feed, `${page.title}: incidents and maintenance`);
  useEffect(() => {
    document.title = page.title;
  }, [page.title]);
  return (
    <Stack gap="xl">
      <PageHeader page={page} />
      {page.activeIncidents.length > 0 && (
        <Part id="active-incidents" title="Active incidents">
          {page.activeIncidents.map((incident) => (
            <IncidentCard key={incident.ref} incident={incident} />
          ))}
        </Part>
      )}
      {page.maintenance.length > 0 && (
        <Part id="maintenance" title="Maintenance">
          {page.maintenance.map((window) => (
            <MaintenanceCard key={window.ref} window={window} />
          ))}
        </Part>
      )}
      {page.sections.map((section, index) => (
        <SectionCard
          key={`${section.title}-${index}`}
          section={section}
          index={index}
          generatedAt={page.generatedAt}
        />
      ))}
      {page.recentIncidents.length > 0 && (
        <Part id="past-incidents" title="Past incidents (30 days)">
          {page.recentIncidents.map((incident) => (
            <IncidentCard key={incident.ref} incident={incident} />
          ))}
        </Part>
      )}
      <SubscribeForm slug={page.slug} />
      <Stack component="footer" gap={4}>
        <Group gap="md">
          <Anchor href={urls.feed}>Atom feed</Anchor>
          <Anchor href={urls.badge}>Status badge (SVG)</Anchor>
        </Group>
        <Text size="xs" c="dimmed">
          Updated {formatTime(page.generatedAt)} · Powered by Checkline
        </Text>
      </Stack>
    </Stack>
  );
}

/**
 * `/status/{slug}`: a published page for anyone, signed in or not. It asks nothing but the
 * page's anonymous JSON, again every 30 s.
 */
export function PublicStatusPage() {
  const { slug = '' } = useParams();
  const page = useQuery({
    queryKey: ['public-status-page', slug],
    queryFn: () => fetchPublicPage(slug),
    refetchInterval: 30_000,
  });
  return (
    <Container size="md" px="md" py="lg" component="main">
      {page.isPending ? (
        <Center mih={200}>
          <Loading label="Loading the status page" />
        </Center>
      ) : page.data ? (
        <PublicPageBody page={page.data} />
      ) : page.data === null ? (
        <NotPublished />
      ) : (
        <ErrorAlert error={page.error} title="The status page could not be loaded" />
      )}
    </Container>
  );
}

function NotPublished() {
  useEffect(() => {
    document.title = 'Status page not found';
  }, []);
  return (
    <Stack>
      <Title order={1} size="h2">
        Status page not found
      </Title>
      <Text>There is no published status page at this address.</Text>
    </Stack>
  );
}
