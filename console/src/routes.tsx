import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from './auth/LoginPage';
import { RequireSession } from './auth/RequireSession';
import { ApprovalsPage } from './automations/ApprovalsPage';
import { AutomationsPage } from './automations/AutomationsPage';
import { BuilderPage } from './automations/BuilderPage';
import { RunHistoryPage } from './automations/RunHistoryPage';
import { MessagePage } from './communications/MessagePage';
import { MessagesPage } from './communications/MessagesPage';
import { PlanPage } from './communications/PlanPage';
import { PlansPage } from './communications/PlansPage';
import { SegmentPage } from './communications/SegmentPage';
import { SegmentsPage } from './communications/SegmentsPage';
import { TemplatePage } from './communications/TemplatePage';
import { TemplatesPage } from './communications/TemplatesPage';
import { ContactFormPage } from './customers/ContactFormPage';
import { ContactPage } from './customers/ContactPage';
import { ContactsPage } from './customers/ContactsPage';
import { ReportsPage } from './reports/ReportsPage';
import { SettingsPage } from './settings/SettingsPage';
import { Coming } from './shell/Coming';
import { Shell } from './shell/Shell';
import { NewWebhookPage } from './webhooks/NewWebhookPage';
import { RequestsPage } from './webhooks/RequestsPage';
import { WebhookPage } from './webhooks/WebhookPage';
import { WebhooksPage } from './webhooks/WebhooksPage';

export const router = createBrowserRouter(
  [
    { path: '/login', element: <LoginPage /> },
    {
      path: '/',
      element: (
        <RequireSession>
          <Shell />
        </RequireSession>
      ),
      children: [
        { index: true, element: <Navigate to="/automations" replace /> },
        { path: 'automations', element: <AutomationsPage /> },
        { path: 'automations/new', element: <BuilderPage /> },
        { path: 'automations/:id', element: <BuilderPage /> },
        { path: 'automations/:id/runs', element: <RunHistoryPage /> },
        { path: 'approvals', element: <ApprovalsPage /> },
        { path: 'customers', element: <ContactsPage /> },
        { path: 'customers/new', element: <ContactFormPage /> },
        { path: 'customers/:id', element: <ContactPage /> },
        { path: 'customers/:id/edit', element: <ContactFormPage /> },
        { path: 'communications', element: <MessagesPage /> },
        { path: 'communications/messages/:id', element: <MessagePage /> },
        { path: 'communications/templates', element: <TemplatesPage /> },
        { path: 'communications/templates/new', element: <TemplatePage /> },
        { path: 'communications/templates/:id', element: <TemplatePage /> },
        { path: 'communications/plans', element: <PlansPage /> },
        { path: 'communications/plans/new', element: <PlanPage /> },
        { path: 'communications/plans/:id', element: <PlanPage /> },
        { path: 'communications/segments', element: <SegmentsPage /> },
        { path: 'communications/segments/new', element: <SegmentPage /> },
        { path: 'communications/segments/:id', element: <SegmentPage /> },
        { path: 'webhooks', element: <WebhooksPage /> },
        { path: 'webhooks/new', element: <NewWebhookPage /> },
        { path: 'webhooks/requests', element: <RequestsPage /> },
        { path: 'webhooks/:id', element: <WebhookPage /> },
        { path: 'reports', element: <ReportsPage /> },
        { path: 'reports/analytics', element: <ReportsPage /> },
        { path: 'settings', element: <SettingsPage /> },
        { path: 'settings/:tab', element: <SettingsPage /> },
        { path: '*', element: <Coming title="Page not found" /> },
      ],
    },
  ],
  { basename: '/console' },
);
