import { Alert, Badge, Button, Card, Group, Select, Stack, Switch, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { languageName, languageOptions } from '../customers/languages';
import { contentAttribute, emptyContent, type ContentDraft } from './contents';
import { HtmlView } from './HtmlView';
import { placeholder, PLACEHOLDERS } from './placeholders';

type TextField = 'subject' | 'plain_content' | 'rich_content';

interface Props {
  contents: ContentDraft[];
  onChange: (contents: ContentDraft[]) => void;
  /** The API's refusals by attribute (`contents.1.plain_content`, `contents`). */
  errors: Record<string, string>;
  /** A plan sent by e-mail needs a subject in every language (the API's rule). */
  subjectRequired?: boolean;
}

/**
 * One tab per language: subject, plain text, HTML. The placeholders the API knows are listed
 * beside, and a click inserts one where the cursor was. A refusal naming a content opens its tab.
 */
export function ContentsEditor({ contents, onChange, errors, subjectRequired }: Props) {
  const [active, setActive] = useState(contents[0]?.key);
  const [showHtml, setShowHtml] = useState(false);
  // The text field typed in last, with its element: where a placeholder goes.
  const focused = useRef<{ key: string; field: TextField; el: HTMLInputElement | HTMLTextAreaElement }>(undefined);
  const current = contents.find((c) => c.key === active) ?? contents[0];
  const index = current ? contents.indexOf(current) : -1;
  const errorOf = (i: number, field: string) => errors[`contents.${i}.${field}`];
  const hasError = (i: number) => Object.keys(errors).some((a) => contentAttribute(a)?.index === i);

  useEffect(() => {
    const named = Object.keys(errors).map(contentAttribute).find((a) => a !== undefined);
    if (named && contents[named.index]) setActive(contents[named.index].key);
  }, [errors]);

  const update = (key: string, change: Partial<ContentDraft>) => onChange(contents.map((c) => (c.key === key ? { ...c, ...change } : c)));
  const used = new Set(contents.map((c) => c.language));
  const addable = languageOptions().filter((o) => !used.has(o.value));

  function add(language: string | null) {
    if (!language) return;
    const added = emptyContent(language);
    onChange([...contents, added]);
    setActive(added.key);
  }

  function remove(key: string) {
    const rest = contents.filter((c) => c.key !== key);
    onChange(rest);
    setActive(rest[0]?.key);
  }

  function insert(field: string) {
    const text = placeholder(field);
    const target = focused.current?.key === current?.key ? focused.current : undefined;
    const name: TextField = target?.field ?? 'plain_content';
    const value = current[name];
    const start = target?.el.selectionStart ?? value.length;
    const end = target?.el.selectionEnd ?? start;
    update(current.key, { [name]: value.slice(0, start) + text + value.slice(end) });
    const el = target?.el;
    if (el) requestAnimationFrame(() => (el.focus(), el.setSelectionRange(start + text.length, start + text.length)));
  }

  const track = (field: TextField) => ({
    onFocus: (e: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => (focused.current = { key: current.key, field, el: e.currentTarget }),
  });

  const panel = current && (
    <Stack pt="sm" gap="sm" data-testid="content-editor">
      <Group align="flex-end">
        <Select
          label="Language"
          data={languageOptions(current.language).filter((o) => o.value === current.language || !used.has(o.value))}
          value={current.language}
          onChange={(v) => v && update(current.key, { language: v })}
          allowDeselect={false}
          searchable
          error={errorOf(index, 'language')}
          w={240}
        />
        {contents.length > 1 && (
          <Button variant="subtle" color="red" onClick={() => remove(current.key)}>
            Remove {languageName(current.language) ?? current.language}
          </Button>
        )}
      </Group>
      <TextInput
        label="Subject"
        required={subjectRequired}
        description="E-mail and in-app messages"
        value={current.subject}
        onChange={(e) => update(current.key, { subject: e.currentTarget.value })}
        error={errorOf(index, 'subject')}
        {...track('subject')}
      />
      <Textarea
        label="Plain text"
        description="SMS, and the text part of an e-mail"
        autosize
        minRows={4}
        maxRows={14}
        value={current.plain_content}
        onChange={(e) => update(current.key, { plain_content: e.currentTarget.value })}
        error={errorOf(index, 'plain_content')}
        {...track('plain_content')}
      />
      <Textarea
        label="HTML"
        description="The e-mail's HTML part; contact values are HTML-escaped when it is sent"
        autosize
        minRows={4}
        maxRows={14}
        styles={{ input: { fontFamily: 'monospace' } }}
        value={current.rich_content}
        onChange={(e) => update(current.key, { rich_content: e.currentTarget.value })}
        error={errorOf(index, 'rich_content')}
        {...track('rich_content')}
      />
      <Switch label="Show the HTML as a mail reader would (placeholders as written)" checked={showHtml} onChange={(e) => setShowHtml(e.currentTarget.checked)} />
      {showHtml && <HtmlView html={current.rich_content} title={`HTML of the ${languageName(current.language) ?? current.language} content`} />}
    </Stack>
  );

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end">
        <Title order={3} size="h5">Contents by language</Title>
        <Select
          label="Add a language"
          placeholder="Pick a language"
          data={addable}
          value={null}
          onChange={add}
          searchable
          w={240}
          size="xs"
        />
      </Group>
      {errors.contents && <Alert color="red" role="alert">{errors.contents}</Alert>}
      {contents.length === 0 && <Text c="dimmed" size="sm">No language yet: add one.</Text>}
      {current && (
        <Group align="flex-start" wrap="wrap" gap="md">
          <Tabs value={current.key} onChange={(v) => v && setActive(v)} style={{ flex: '1 1 480px', minWidth: 0 }}>
            <Tabs.List aria-label="Languages">
              {contents.map((c, i) => (
                <Tabs.Tab key={c.key} value={c.key} rightSection={hasError(i) ? <Badge size="xs" color="red" aria-label="has an error">!</Badge> : undefined}>
                  {languageName(c.language) ?? c.language}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {contents.map((c) => (
              <Tabs.Panel key={c.key} value={c.key}>
                {c.key === current.key && panel}
              </Tabs.Panel>
            ))}
          </Tabs>
          <Card withBorder component="aside" aria-labelledby="placeholders-title" style={{ flex: '0 1 280px' }} padding="sm">
            <Title order={3} size="h6" id="placeholders-title">Placeholders</Title>
            <Text size="xs" c="dimmed" mb="xs">
              Filled with each contact's value when sent (empty when the contact has none). A click inserts one where the cursor is.
            </Text>
            <Stack gap={4}>
              {PLACEHOLDERS.map((p) => (
                <Group key={p.field} gap={6} wrap="wrap" data-testid="placeholder">
                  <Button
                    size="compact-xs"
                    variant="light"
                    styles={{ label: { fontFamily: 'monospace', overflow: 'visible' } }}
                    style={{ flexShrink: 0 }}
                    onClick={() => insert(p.field)}
                    aria-label={`Insert ${placeholder(p.field)}`}
                  >
                    {placeholder(p.field)}
                  </Button>
                  <Text size="xs" c="dimmed">{p.meaning}</Text>
                </Group>
              ))}
            </Stack>
          </Card>
        </Group>
      )}
    </Stack>
  );
}
