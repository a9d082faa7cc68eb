// Add To Segment (Automatic Content Updates): makes the event's contact a member of a STATIC
// segment, which a communication plan then sends to (a welcome series). A FILTER segment computes
// its members, so none can be added: refused when the sequence is saved, and FAILED if the segment
// became one since (docs/automations.md "What each adaptor does").
import type { Tx } from '../../../db/client';
import { addMember, isMember, staticSegment } from '../../communications/segments';
import { recordAttribute } from '../records';
import { defineAction, reference } from './define';
import { systemActor, writableContactOf, type RunContext } from './run-context';

export const addToSegment = defineAction({
  code: 'ADD_TO_SEGMENT',
  name: 'Add To Segment',
  description: "Adds the event's contact to a static segment, so the communication plans sending to that segment reach them too.",
  adaptors: ['AUTOMATIC_CONTENT_UPDATES'],
  parameters: [reference('segment_id', 'SEGMENT', 'segment', true, 'A STATIC segment of the organisation: the contact becomes one of its members.')],
  performer: {
    kind: 'transaction',
    async perform(tx, _deps, ctx) {
      const { segment, contactId } = await membership(tx, ctx, true);
      const added = await addMember(tx, systemActor(ctx), segment.id, contactId);
      return { status: 'COMPLETED', attributes: attributes(segment, !added) };
    },
    async preview(tx, ctx) {
      const { segment, contactId } = await membership(tx, ctx, false);
      const alreadyMember = await isMember(tx, ctx.organisationId, segment.id, contactId);
      return { kind: 'SEGMENT_MEMBERSHIP', contact_id: contactId, segment_id: segment.id, segment_name: segment.name, already_member: alreadyMember };
    },
  },
});

/** The segment (STATIC, locked when the step writes) and the contact (not anonymized) the action joins. */
async function membership(tx: Tx, ctx: RunContext, lock: boolean) {
  const contactId = await writableContactOf(tx, ctx);
  const segment = await staticSegment(tx, ctx.organisationId, ctx.step.parameters.segment_id, 'segment_id', lock);
  return { segment, contactId };
}

const attributes = (segment: { id: string; name: string }, alreadyMember: boolean) => [
  recordAttribute('segment_id', 'Segment', 'STRING', segment.id),
  recordAttribute('segment_name', 'Segment name', 'STRING', segment.name),
  recordAttribute('already_member', 'Already a member', 'BOOLEAN', String(alreadyMember)),
];
