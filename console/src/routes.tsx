import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from './auth/LoginPage';
import { RequireSession } from './auth/RequireSession';
import { ApprovalsPage } from './automations/ApprovalsPage';
import { AutomationsPage } from './automations/AutomationsPage';
import { BuilderPage } from './automations/BuilderPage';
import { RunHistoryPage } from './automations/RunHistoryPage';
import { Coming } from './shell/Coming';
import { Shell } from './shell/Shell';

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
        { path: 'customers', element: <Coming title="Customers" /> },
        { path: 'communications', element: <Coming title="Communications" /> },
        { path: 'webhooks', element: <Coming title="Webhooks" /> },
        { path: 'reports', element: <Coming title="Reports" /> },
        { path: 'settings', element: <Coming title="Settings" /> },
        { path: '*', element: <Coming title="Page not found" /> },
      ],
    },
  ],
  { basename: '/console' },
);
