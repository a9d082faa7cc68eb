import type { z } from 'zod';
import { userName } from '../../domain/assignments/members';
import type { UserFilter, UserRecord } from '../../domain/users/directory';
import type { SortField } from '../lists';
import { epoch } from '../present';
import type { userItem, userListQuery } from './schemas';

export function presentUser(u: UserRecord): z.input<typeof userItem> {
  return {
    id: u.id,
    username: u.username,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    name: userName(u),
    is_admin: u.isAdmin,
    scopes: u.scopes,
    is_disabled: u.disabledAt !== null,
    disabled_on: epoch(u.disabledAt),
    created_on: epoch(u.createdAt),
    departments: u.departments.map((m) => m.department),
    user_roles: u.roles.map((m) => m.role),
  };
}

export const USER_SORT: Record<string, SortField> = { username: 'username', created_on: 'createdAt' };

export const userFilter = (q: z.output<typeof userListQuery>): UserFilter => ({ username: q.username, searchValue: q.search_value });
