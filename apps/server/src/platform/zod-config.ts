import { z } from 'zod';

// A missing field reads as "required" rather than as a type mismatch; the error handler localises it.
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null))
      return 'required';
    return undefined;
  },
});
