// Every HTTP endpoint of the service, for the OpenAPI document and the test
// that checks each route handler is listed here.
import { apiTesterEndpoints } from "./api-tester";
import { testerExecuteEndpoints } from "./tester-execute-endpoints";
import { testerSharingEndpoints } from "./tester-sharing";
import { testerMockEndpoints } from "./tester-mock-endpoints";
import { testerImportEndpoints } from "./tester-import-endpoints";
import { testerScheduleEndpoints, testerTestEndpoints } from "./tester-tests-schedules";
import { testerHelperEndpoints } from "./tester-helpers";
import { testerImportFormatEndpoints } from "./tester-import-format-endpoints";
import { auditEndpoints } from "./audit";
import { brokerAdminEndpoints } from "./broker-admin";
import { authEndpoints } from "./auth";
import { emailEndpoints } from "./email";
import { templateEndpoints, tempFileEndpoints } from "./file-endpoints";
import type { Endpoint } from "./endpoint";
import { eventEndpoints } from "./events";
import { generatorEndpoints } from "./generators";
import { grpcEndpoints } from "./grpc-endpoints";
import { healthEndpoints } from "./health";
import { identityProviderEndpoints } from "./identity-providers";
import { integrationEndpoints } from "./integrations";
import { mockEndpoints } from "./mock-endpoints";
import { memberEndpoints, namespaceEndpoints } from "./namespaces";
import { perfEndpoints } from "./perf-endpoints";
import { pluginProtocolEndpoints } from "./plugin-protocols";
import { protocolServerEndpoints } from "./protocol-servers";
import { runnerEndpoints, runnerTaskEndpoints } from "./runner-endpoints";
import { smtpMailboxEndpoints } from "./smtp-mailbox";
import { specBuilderEndpoint } from "./spec-builder";
import { storeEndpoints } from "./store-endpoints";
import { organisationEndpoints } from "./organisation-endpoints";
import { perfScriptEndpoints } from "./perf-script-endpoints";
import { perfCollectionEndpoints } from "./perf-collection-endpoints";
import { userEndpoints } from "./users";

export const allEndpoints: Endpoint[] = [
  ...Object.values(healthEndpoints),
  ...Object.values(eventEndpoints),
  ...Object.values(authEndpoints),
  ...Object.values(namespaceEndpoints),
  ...Object.values(memberEndpoints),
  ...Object.values(userEndpoints),
  ...Object.values(identityProviderEndpoints),
  ...Object.values(emailEndpoints),
  ...Object.values(auditEndpoints),
  ...Object.values(integrationEndpoints),
  ...Object.values(mockEndpoints),
  ...Object.values(storeEndpoints),
  ...Object.values(grpcEndpoints),
  ...Object.values(templateEndpoints),
  ...Object.values(tempFileEndpoints),
  ...Object.values(organisationEndpoints),
  ...Object.values(protocolServerEndpoints),
  ...Object.values(pluginProtocolEndpoints),
  ...Object.values(generatorEndpoints).flatMap((pair) => Object.values(pair)),
  specBuilderEndpoint,
  ...Object.values(smtpMailboxEndpoints),
  ...Object.values(brokerAdminEndpoints),
  ...apiTesterEndpoints,
  ...Object.values(testerExecuteEndpoints),
  ...Object.values(testerSharingEndpoints),
  ...Object.values(testerMockEndpoints),
  ...Object.values(testerImportEndpoints),
  ...Object.values(testerTestEndpoints),
  ...Object.values(testerScheduleEndpoints),
  ...Object.values(testerHelperEndpoints),
  ...Object.values(testerImportFormatEndpoints),
  ...perfEndpoints,
  ...Object.values(perfScriptEndpoints),
  ...Object.values(perfCollectionEndpoints),
  ...Object.values(runnerTaskEndpoints),
  ...Object.values(runnerEndpoints),
];
