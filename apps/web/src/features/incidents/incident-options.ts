export const severityOptions = ['minor', 'major', 'critical'];
export const statusOptions = ['investigating', 'identified', 'monitoring', 'resolved'];
export const severityColor: Record<string, string> = {
  minor: 'yellow',
  major: 'orange',
  critical: 'red',
};
