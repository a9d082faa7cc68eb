// The report run (docs/reports.md "Run", "Crash behaviour"): rows are read in keyset pages and
// streamed into a file under DATA_DIR/reports, which is mailed as an attachment (nodemailer
// streams it from disk) with a Message-ID derived from the run, then deleted. A retry after a
// crash writes the file again and sends the same message again: the receiving side sees one
// Message-ID. A refusal (the body no longer fits the catalogue, a permanent SMTP refusal) is
// not retried; the workflow then marks the run FAILED.
import { countReportRun } from '../telemetry/instruments';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { txSql } from '../db/sql';
import { scopedClient } from '../db/tenancy';
import { pickIntegration } from '../domain/communications/communications';
import { settingsToSend } from '../domain/communications/integration-secrets';
import type { SmtpSettings } from '../domain/communications/integration-settings';
import { reportDef } from '../domain/reports/catalogue';
import { csvWriter, type ReportWriter } from '../domain/reports/csv';
import { pdfWriter } from '../domain/reports/pdf';
import { getSettingsSql } from '../domain/money/settings';
import { compileReport, readPage, type Cursor } from '../domain/reports/query';
import { markFailed, markRunning, markSent } from '../domain/reports/runs';
import type { ReportQueryInput } from '../domain/reports/types';
import type { MailMessage, Mailer } from '../mail';
import { Permanent, sendSmtp, smtpTransport } from './communications';
import { checkIds, notOwned } from './ownership';
import type { ReportRunRef } from '../workflows/contracts';

/** Rows read per statement: one page is all a run holds in memory. */
const REPORT_PAGE_ROWS = 1000;

const reportMessageId = (runId: string) => `<report-${runId}@backoffice>`;

function reportFile(config: Pick<Config, 'dataDir'>, runId: string, format: string): string {
  return path.join(config.dataDir, 'reports', `${runId}.${format.toLowerCase()}`);
}

/** A settled run's file, whichever its format: a crash or an operator's terminate may leave it behind. */
export async function removeReportFiles(config: Pick<Config, 'dataDir'>, runId: string): Promise<void> {
  await Promise.all(['CSV', 'PDF'].map((format) => rm(reportFile(config, runId, format), { force: true })));
}

/** `YYYY-MM-DD HH:MM:SS` in the zone (sv-SE writes ISO order). */
function localTime(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }).format(date);
}

export function reportActivities(deps: { db: Db; mail: Mailer; config: Config }) {
  /** Through the organisation's EMAIL integration when it is SMTP (as communications pick it), else the service's mailer. */
  async function send(db: Db, organisationId: string, message: MailMessage & { messageId: string }): Promise<void> {
    const integration = await pickIntegration(db, organisationId, 'EMAIL', undefined);
    if (integration?.provider !== 'SMTP') {
      await deps.mail.send(message);
      return;
    }
    const settings = settingsToSend<SmtpSettings>(integration);
    const transport = await smtpTransport(deps.config, settings);
    try {
      await sendSmtp(transport, settings, message);
    } finally {
      transport.close();
    }
  }

  return {
    /** Writes and mails the run's file, then marks it SENT; a run already settled is left alone. */
    async runReport(input: ReportRunRef): Promise<'SENT' | 'ALREADY_DONE'> {
      const activity = Context.current();
      checkIds({ organisationId: input.organisationId, runId: input.runId });
      const db = scopedClient(deps.db, input.organisationId);
      const run = await markRunning(db, input.runId);
      if (!run) {
        // Before any file is touched: the file is named by the run id alone, whoever's run it is.
        if (!(await db.reportRun.findFirst({ where: { id: input.runId }, select: { id: true } }))) throw notOwned('report run', input.runId, input.organisationId);
        // A crash between marking SENT and deleting the file leaves it behind: the repeat removes it.
        await removeReportFiles(deps.config, input.runId);
        return 'ALREADY_DONE';
      }
      const sql = txSql(db, input.organisationId);
      const file = reportFile(deps.config, run.id, run.format);
      let writer: ReportWriter | undefined;
      try {
        const report = reportDef(run.report);
        const { timeZone } = await getSettingsSql(sql);
        const compiled = compileReport(report, run.body as ReportQueryInput, { dates: 'local', timeZone });
        const generatedAt = `${localTime(new Date(), timeZone)} (${timeZone})`;
        await mkdir(path.dirname(file), { recursive: true });
        writer = run.format === 'PDF'
          ? pdfWriter(file, compiled.fields, { report: report.name, filters: compiled.filterText, generatedAt })
          : csvWriter(file, compiled.fields);
        let rowCount = 0;
        // The worker's keep-alive heartbeats while a page or the mail takes a while (src/activities/keep-alive.ts).
        let cursor: Cursor | null = null;
        do {
          const page = await readPage(sql, compiled, cursor, REPORT_PAGE_ROWS);
          await writer.write(page.rows);
          rowCount += page.rows.length;
          cursor = page.next;
          activity.heartbeat(rowCount);
        } while (cursor);
        await writer.end();
        writer = undefined; // complete: nothing left to abort
        const byteCount = (await stat(file)).size;
        // An operator's terminate settles the run FAILED while this activity still runs: mail nothing then.
        if ((await db.reportRun.findFirst({ where: { id: run.id }, select: { state: true } }))?.state !== 'RUNNING') return 'ALREADY_DONE';

        const name = `${report.id}-${generatedAt.slice(0, 10)}.${run.format.toLowerCase()}`;
        await send(db, input.organisationId, {
          to: run.recipient,
          subject: `Report ${report.name} (${rowCount} ${rowCount === 1 ? 'row' : 'rows'})`,
          text: [
            `The report ${report.name} you ran: ${rowCount} ${rowCount === 1 ? 'row' : 'rows'}, attached as ${run.format}.`,
            `Filters: ${compiled.filterText.length ? compiled.filterText.join('; ') : 'none'}.`,
            `Generated ${generatedAt}; run ${run.id}.`,
          ].join('\n'),
          attachments: [{ filename: name, path: file, contentType: run.format === 'PDF' ? 'application/pdf' : 'text/csv; charset=utf-8' }],
          messageId: reportMessageId(run.id),
        });
        // Counted once per run, when its row moves: a repeated activity or a run an operator
        // terminated meanwhile counts nothing (as communications count: docs/operations.md).
        if (await markSent(db, run.id, { rowCount, byteCount })) countReportRun(input.organisationId, 'sent');
        return 'SENT';
      } catch (err) {
        writer?.abort();
        if (err instanceof Permanent) throw ApplicationFailure.nonRetryable(err.message, 'MAIL_REFUSED');
        throw err;
      } finally {
        await rm(file, { force: true });
      }
    },

    /** The last word on a run that could not be sent (the workflow's, after the retries). */
    async failReportRun(input: ReportRunRef & { error: string }): Promise<void> {
      checkIds({ organisationId: input.organisationId, runId: input.runId });
      if (await markFailed(scopedClient(deps.db, input.organisationId), input.runId, input.error)) countReportRun(input.organisationId, 'failed');
    },
  };
}
