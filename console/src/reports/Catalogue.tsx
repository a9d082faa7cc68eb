import { Alert, Grid, Loader, NavLink, Paper, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { ReportView } from './ReportView';
import { useOrganisationZone } from '../components/zone';

/** The report catalogue (GET /reports) beside the chosen report (`?report=<id>`: a link to it, and back returns). */
export function Catalogue() {
  const [params] = useSearchParams();
  const chosen = params.get('report');
  const catalogue = useLoad(() => ok(api.GET('/reports', { params: { query: { size: 100 } } })), []);
  const me = useLoad(() => ok(api.GET('/users/me')), []);
  const zone = useOrganisationZone();
  const reports = catalogue.data?.content ?? [];
  const report = reports.find((r) => r.id === chosen);
  const email = me.data ? (me.data.credential_type === 'USER' ? me.data.email : null) : undefined;

  if (catalogue.error) return <Alert color="red" title="Cannot load the report catalogue">{catalogue.error.message}</Alert>;
  if (!catalogue.data || !zone) return <Loader aria-label="Loading the report catalogue" />;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 3 }}>
        <Paper withBorder p={4} component="nav" aria-label="Report catalogue">
          {reports.map((r) => (
            <NavLink
              key={r.id}
              component={Link}
              to={`/reports?report=${encodeURIComponent(r.id)}`}
              label={r.name}
              description={`${r.columns.length} columns`}
              active={r.id === chosen}
              aria-current={r.id === chosen ? 'page' : undefined}
            />
          ))}
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9 }}>
        {report ? (
          <ReportView report={report} zone={zone.name} email={email} />
        ) : (
          <Text c="dimmed">{chosen ? `There is no report ${chosen}.` : 'Choose a report: preview its records, then run it to your e-mail as CSV or PDF.'}</Text>
        )}
      </Grid.Col>
    </Grid>
  );
}
