/**
 * `GET /api/v1/settings`: answered by the Temporal UI server, not the frontend, so it is the one
 * route written by hand. Field names are the UI server's (SettingsResponse in @temporalio/ui's
 * types). Reset and batch operations are switched off because the embedded server does not
 * implement them: the UI then hides or disables them instead of failing.
 */

/** The Temporal UI version this API is written for (the UI encodes path ids once from 2.23 on). */
export const UI_VERSION = '2.38.0';

export function uiSettings(defaultNamespace = 'default'): object {
  return {
    Auth: { Enabled: false, Options: [] },
    BannerText: '',
    DefaultNamespace: defaultNamespace,
    ShowTemporalSystemNamespace: false,
    FeedbackURL: '',
    NotifyOnNewVersion: false,
    Codec: { Endpoint: '', PassAccessToken: false, IncludeCredentials: false, DefaultErrorMessage: '', DefaultErrorLink: '' },
    Version: UI_VERSION,
    DisableWriteActions: false,
    WorkflowTerminateDisabled: false,
    WorkflowCancelDisabled: false,
    WorkflowSignalDisabled: false,
    WorkflowUpdateDisabled: false,
    WorkflowResetDisabled: true,
    BatchActionsDisabled: true,
    StartWorkflowDisabled: false,
    HideWorkflowQueryErrors: false,
    RefreshWorkflowCountsDisabled: false,
  };
}
