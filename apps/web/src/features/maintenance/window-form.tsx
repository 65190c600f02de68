import { DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { useState } from 'react';
import { FormDialog, type FieldsFormProps } from '../../ui/form-dialog.tsx';
import { SystemsPicker } from '../../ui/systems-picker.tsx';
import { localToInstant } from './window-phase.ts';
import { NameDescriptionFields } from '../../ui/name-description-fields.tsx';
import { useNameDescription } from '../../ui/use-name-description.ts';

export interface WindowFields {
  title: string;
  description: string;
  systemIds: string[];
  startAt: string;
  endAt: string;
}

export const emptyWindow: WindowFields = {
  title: '',
  description: '',
  systemIds: [],
  startAt: '',
  endAt: '',
};

/** An API instant as the date-time picker's value in the browser's time zone. */
const instantToLocal = (instant: string) =>
  instant ? dayjs(instant).format('YYYY-MM-DD HH:mm:ss') : null;

/**
 * The instant a picker holds; an untouched picker keeps the stored instant, whose milliseconds
 * the picker cannot show.
 */
const pickedInstant = (picked: string | null, stored: string) =>
  picked === instantToLocal(stored) ? stored : (localToInstant(picked) ?? '');

/** Title, systems and a start and end picked in the browser's time zone: to schedule or edit a window. */
export function WindowForm({ initial, save, ...dialog }: FieldsFormProps<WindowFields>) {
  const fields = useNameDescription({ name: initial.title, description: initial.description });
  const [systemIds, setSystemIds] = useState(initial.systemIds);
  const [startAt, setStartAt] = useState(instantToLocal(initial.startAt));
  const [endAt, setEndAt] = useState(instantToLocal(initial.endAt));
  return (
    <FormDialog
      {...dialog}
      save={() =>
        save({
          title: fields.name,
          description: fields.description,
          systemIds,
          startAt: pickedInstant(startAt, initial.startAt),
          endAt: pickedInstant(endAt, initial.endAt),
        })
      }
    >
      {(issues) => (
        <>
          <NameDescriptionFields {...fields} issues={issues} nameLabel="Title" nameField="title" />
          <SystemsPicker
            label="Systems"
            required
            value={systemIds}
            error={issues.systemIds}
            onChange={setSystemIds}
          />
          <DateTimePicker
            label="Starts"
            description="In your time zone."
            required
            value={startAt}
            submitButtonProps={{ 'aria-label': 'Confirm start' }}
            error={issues.startAt}
            onChange={setStartAt}
          />
          <DateTimePicker
            label="Ends"
            required
            value={endAt}
            submitButtonProps={{ 'aria-label': 'Confirm end' }}
            error={issues.endAt}
            onChange={setEndAt}
          />
        </>
      )}
    </FormDialog>
  );
}
