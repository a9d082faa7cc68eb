import { Alert, Button, Checkbox, Fieldset, Group, Loader, Radio, Select, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { createBody, draftOf, EMPTY_DRAFT, fieldOfAttribute, updateBody, type ContactDraft, type StoredItems } from './contactDraft';
import { useCountryOptions } from './countries';
import { languageOptions } from './languages';

/** Create a contact (`/customers/new`) or edit one (`/customers/{id}/edit`): the common fields. */
export function ContactFormPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const countries = useCountryOptions();
  const stored = useLoad(async () => (id ? ok(api.GET('/contacts/{id}', { params: { path: { id } } })) : undefined), [id]);
  const [items, setItems] = useState<StoredItems>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  const form = useForm<ContactDraft>({ initialValues: EMPTY_DRAFT });

  useEffect(() => {
    if (!stored.data) return;
    const { draft, items } = draftOf(stored.data);
    form.setValues(draft);
    form.resetDirty(draft);
    setItems(items);
    // The form object is stable per page; only a new answer refills it.
  }, [stored.data]);

  if (stored.error) return <Alert color="red" title="Cannot load the contact">{stored.error.message}</Alert>;
  if (id && !stored.data) return <Loader aria-label="Loading" />;

  const submit = form.onSubmit(async (draft) => {
    setSaving(true);
    setFailure(undefined);
    form.clearErrors();
    try {
      const saved = id
        ? await ok(api.PUT('/contacts/{id}', { params: { path: { id } }, body: updateBody(draft, items) }))
        : await ok(api.POST('/contacts', { body: createBody(draft) }));
      notifications.show({ color: 'green', message: id ? 'Contact saved' : 'Contact created' });
      navigate(`/customers/${saved.id}`);
    } catch (err) {
      const placed = placeError(err, fieldOfAttribute);
      if (placed.field) form.setFieldError(placed.field, placed.message);
      else setFailure(placed.message);
    } finally {
      setSaving(false);
    }
  });

  const person = form.values.contact_type === 'PERSON';
  const input = (key: keyof ContactDraft) => form.getInputProps(key);
  const check = (key: keyof ContactDraft) => form.getInputProps(key, { type: 'checkbox' });
  // A select's "nothing chosen" is null (an empty string would count as a choice and show the clear button).
  const choice = (key: keyof ContactDraft) => {
    const props = form.getInputProps(key);
    return { ...props, value: (props.value as string) || null, onChange: (v: string | null) => form.setFieldValue(key, v ?? '') };
  };
  const countryProps = { data: countries.options, searchable: true, clearable: true, nothingFoundMessage: 'No such country', description: countries.failure };
  const title = id ? `Edit ${stored.data?.contact_name ?? 'contact'}` : 'New contact';
  return (
    <form onSubmit={submit} noValidate aria-labelledby="contact-form-title">
      <Stack maw={960}>
        <Title order={1} size="h2" id="contact-form-title">{title}</Title>
        {failure && <Alert color="red" role="alert" title="Not saved">{failure}</Alert>}
        <Fieldset legend="Who">
          <Stack>
            <Radio.Group label="Type" {...input('contact_type')} description={id ? 'A contact keeps its type' : undefined}>
              <Group mt={4}>
                <Radio value="PERSON" label="Person" disabled={!!id} />
                <Radio value="COMPANY" label="Company" disabled={!!id} />
              </Group>
            </Radio.Group>
            {person ? (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="Title" {...input('title')} />
                <TextInput label="First name" required {...input('first_name')} />
                <TextInput label="Middle name" {...input('middle_name')} />
                <TextInput label="Last name" required {...input('last_name')} />
              </SimpleGrid>
            ) : (
              <TextInput label="Company name" required {...input('company_name')} />
            )}
            <TextInput label="Code" description="Your own reference; it identifies the contact like its id" {...input('code')} />
          </Stack>
        </Fieldset>
        <Fieldset legend="How to reach them">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="E-mail address" type="email" autoComplete="off" {...input('email_address')} />
            <TextInput label="Phone number" type="tel" {...input('phone_number')} />
            <Select label="Phone country" {...countryProps} {...choice('phone_country')} />
            <Select label="Preferred language" data={languageOptions(form.values.preferred_language_code)} searchable clearable {...choice('preferred_language_code')} />
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend="Address">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Address line 1" {...input('address_line_1')} />
            <TextInput label="Address line 2" {...input('address_line_2')} />
            <TextInput label="Town or city" {...input('town_city')} />
            <TextInput label="Postal code" {...input('postal_code')} />
            <TextInput label="State, province or county" {...input('state_province_county')} />
            <Select label="Country" {...countryProps} {...choice('country_code')} />
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend="Marketing consent">
          <Stack gap="xs">
            <Checkbox label="Opted out of marketing e-mails" {...check('email_opt_out')} />
            <Checkbox label="Opted out of marketing SMS" {...check('sms_opt_out')} />
            <Checkbox label="Accepts affiliate marketing" {...check('affiliate_marketing')} />
          </Stack>
        </Fieldset>
        <Textarea label="Notes" autosize minRows={2} {...input('notes')} />
        {!id && <Checkbox label="Create a default account (for wallets)" {...check('create_default_account')} />}
        <Group>
          <Button type="submit" loading={saving}>{id ? 'Save' : 'Create contact'}</Button>
          <Button variant="default" component={Link} to={id ? `/customers/${id}` : '/customers'}>Cancel</Button>
        </Group>
      </Stack>
    </form>
  );
}
