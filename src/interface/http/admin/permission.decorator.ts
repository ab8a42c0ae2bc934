import { SetMetadata } from '@nestjs/common';
import { Permission } from '../../../domain/back-office/operator-role';

export const PERMISSION_KEY = 'back-office:permission';

/**
 * What a back-office route (or every route of a controller) needs from the caller's role; a
 * method's own declaration wins over its controller's. A route guarded by AdminTokenGuard that
 * declares nothing is the owner's alone (the guard fails closed).
 */
export const RequiresPermission = (permission: Permission) => SetMetadata(PERMISSION_KEY, permission);
