import { Button } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { emptyWindow, WindowForm } from './window-form.tsx';

export function ScheduleWindow() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button onClick={() => setOpened(true)}>Schedule window</Button>
      {opened && (
        <WindowForm
          title="Schedule a maintenance window"
          submitLabel="Schedule"
          initial={emptyWindow}
          onClose={() => setOpened(false)}
          save={(fields) => api.maintenance.scheduleWindow(fields)}
        />
      )}
    </>
  );
}
