import { Switch } from '@mantine/core';
import type { Dispatch, SetStateAction } from 'react';
import type { Choice } from './scopes';
import { ScopesPicker } from './ScopesPicker';

interface Props {
  isAdmin: boolean;
  onAdminChange: (isAdmin: boolean) => void;
  choice: Choice;
  onChoiceChange: (choice: Choice) => void;
  errors: Record<string, string>;
  onErrorsChange: Dispatch<SetStateAction<Record<string, string>>>;
}

/** A user's rights, as a new user and an edited one are given them: the admin flag and the scopes. */
export function AccessFields({ isAdmin, onAdminChange, choice, onChoiceChange, errors, onErrorsChange }: Props) {
  return (
    <>
      <Switch
        label="Admin"
        description="Manages API keys and users (with the scopes for them)"
        checked={isAdmin}
        onChange={(e) => onAdminChange(e.currentTarget.checked)}
        error={errors.is_admin}
        aria-invalid={errors.is_admin ? true : undefined}
      />
      <ScopesPicker
        value={choice}
        error={errors.scopes}
        onChange={(next) => {
          // A new choice answers the refusal of the scopes.
          onErrorsChange(({ scopes: _, ...rest }) => rest);
          onChoiceChange(next);
        }}
      />
    </>
  );
}
