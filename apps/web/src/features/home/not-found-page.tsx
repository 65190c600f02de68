import { Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Page } from '../../ui/page.tsx';

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <Text>There is no page at this address.</Text>
      <Button component={Link} to="/" w="fit-content">
        Go to the overview
      </Button>
    </Page>
  );
}
