import { authContract } from '@checkline/auth/contract';
import { catalogContract } from '@checkline/catalog/contract';
import { healthcheckContract } from '@checkline/healthcheck/contract';
import { incidentContract } from '@checkline/incident/contract';
import { maintenanceContract } from '@checkline/maintenance/contract';
import { notificationContract } from '@checkline/notification/contract';
import { statuspageContract } from '@checkline/statuspage/contract';

/** Every plugin's contract under its plugin id: the shape of the client and of the API's paths. */
export const contracts = {
  auth: authContract,
  catalog: catalogContract,
  healthcheck: healthcheckContract,
  incident: incidentContract,
  maintenance: maintenanceContract,
  notification: notificationContract,
  statuspage: statuspageContract,
};

export type Contracts = typeof contracts;
