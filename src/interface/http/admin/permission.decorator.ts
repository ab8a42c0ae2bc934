import { SetMetadata } from '@nestjs/common';
import { Permission } from '../../../domain/back-office/operator-role';

export const PERMISSION_KEY = 'back-office:permission';

/**
 * What a back-office route needs from the caller's role. Declared on each route, not on a
 * controller, so that a route added to a controller later is closed until someone decides: a
 * route guarded by AdminTokenGuard that declares nothing is the owner's alone (the guard fails
 * closed). A method's declaration wins over a controller's (OperatorsController: the owner's).
 */
export const RequiresPermission = (permission: Permission) => SetMetadata(PERMISSION_KEY, permission);
