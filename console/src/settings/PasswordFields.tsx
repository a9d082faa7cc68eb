import { PasswordInput, Stack, Switch } from '@mantine/core';
import { useId } from 'react';

/** A password typed twice, or one the browser generates and the console shows once after saving. */
export interface PasswordChoice {
  generate: boolean;
  typed: string;
  repeated: string;
}

export const NO_PASSWORD: PasswordChoice = { generate: true, typed: '', repeated: '' };

/** The API's rule (POST /users, reset_password) is checked by the API; the console checks only the repetition. */
export function passwordOf(choice: PasswordChoice): { password: string; generated: boolean } | { field: 'repeated'; message: string } {
  if (choice.generate) return { password: generatePassword(), generated: true };
  if (choice.typed !== choice.repeated) return { field: 'repeated', message: 'The two passwords differ' };
  return { password: choice.typed, generated: false };
}

/** 18 random bytes as base64url, 24 characters: what the admin command line generates. */
function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
}

export function PasswordFields({ value, onChange, errors }: { value: PasswordChoice; onChange: (next: PasswordChoice) => void; errors: Record<string, string> }) {
  const id = useId();
  // Mantine's PasswordInput links neither its description nor its error to the input: done here, for screen readers.
  const described = (field: 'password' | 'repeated', withDescription: boolean) => ({
    descriptionProps: { id: `${id}-${field}-description` },
    errorProps: { id: `${id}-${field}-error` },
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': [withDescription && `${id}-${field}-description`, errors[field] && `${id}-${field}-error`].filter(Boolean).join(' ') || undefined,
  });
  return (
    <Stack gap="xs">
      <Switch
        label="Generate a password"
        description="Shown once after saving, to hand over to the user"
        checked={value.generate}
        onChange={(e) => onChange({ ...value, generate: e.currentTarget.checked })}
        error={value.generate ? errors.password : undefined}
      />
      {!value.generate && (
        <>
          <PasswordInput
            label="Password"
            description="At least 12 characters"
            autoComplete="new-password"
            required
            value={value.typed}
            onChange={(e) => onChange({ ...value, typed: e.currentTarget.value })}
            error={errors.password}
            {...described('password', true)}
          />
          <PasswordInput
            label="Repeat the password"
            autoComplete="new-password"
            required
            value={value.repeated}
            onChange={(e) => onChange({ ...value, repeated: e.currentTarget.value })}
            error={errors.repeated}
            {...described('repeated', false)}
          />
        </>
      )}
    </Stack>
  );
}
