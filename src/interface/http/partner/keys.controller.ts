import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../../../application/auth/caller';
import { MainKeyRequirement } from '../../../application/auth/main-key-requirement';
import { CreateScopedKey } from '../../../application/keys/create-scoped-key';
import { ListScopedKeys } from '../../../application/keys/list-scoped-keys';
import { RevokeScopedKey } from '../../../application/keys/revoke-scoped-key';
import { ClaimLiveKey } from '../../../application/partners/claim-live-key';
import { ServiceError } from '../../../application/shared/service-error';
import { ApiErrorResponses } from '../openapi/api-error-responses';
import {
  ClaimedLiveKeyDto,
  CreateScopedKeyDto,
  RevokedKeyDto,
  ScopedKeyListDto,
  ScopedKeyResponseDto,
  scopedKeyRequest,
} from './dto/scoped-key.dto';
import { CurrentCaller } from '../../shared/partner-request';
import { createdScopedKeyResource, revokedKeyResource, scopedKeyListResource } from '../../shared/key-resources';
import { claimedLiveKeyResource } from './claimed-live-key-resource';
import { PartnerAuthGuard } from './partner-auth.guard';

/** Restricted keys of the key's environment; only the main key manages them. */
@ApiTags('keys')
@ApiBearerAuth()
@Controller('v1/partner')
@UseGuards(PartnerAuthGuard)
export class KeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly mainKey: MainKeyRequirement,
  ) {}

  @Post('keys')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a restricted key (read-only, or transact with caps); the key is shown once',
    operationId: 'createScopedKey',
  })
  @ApiCreatedResponse({ type: ScopedKeyResponseDto, description: 'The key, with `api_key` shown this once' })
  @ApiErrorResponses({
    400: true,
    409: 'invalid_state: the environment already has the most active restricted keys (50)',
    413: true,
    415: true,
  })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateScopedKeyDto) {
    await this.mainKey.check(caller, 'create keys');
    const created = await this.commands.execute(
      new CreateScopedKey(caller.partnerId, caller.environment, scopedKeyRequest(body), {
        type: 'partner_key',
        id: caller.keyId,
      }),
    );
    return createdScopedKeyResource(created);
  }

  @Post('live-key')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Once KYC is approved, your first live key, asked for with your sandbox main key; it is shown once and to you only',
    operationId: 'claimLiveKey',
  })
  @ApiCreatedResponse({ type: ClaimedLiveKeyDto, description: 'The live key, shown this once' })
  @ApiErrorResponses({
    409: 'invalid_state: not asked with the sandbox key, KYC not approved yet, or the live key was already issued',
  })
  async claimLiveKey(@CurrentCaller() caller: Caller) {
    await this.mainKey.check(caller, 'claim the live key');
    if (caller.environment !== 'sandbox')
      throw new ServiceError('invalid_state', 'the live key is claimed with your sandbox main key');
    return claimedLiveKeyResource(await this.commands.execute(new ClaimLiveKey(caller.partnerId, caller.keyId)));
  }

  @Get('keys')
  @ApiOperation({
    summary: 'Your restricted keys of this environment, with their spend and refusals of the last 24 hours',
    operationId: 'listScopedKeys',
  })
  @ApiOkResponse({ type: ScopedKeyListDto })
  @ApiErrorResponses({})
  async list(@CurrentCaller() caller: Caller) {
    await this.mainKey.check(caller, 'list keys');
    return scopedKeyListResource(await this.queries.execute(new ListScopedKeys(caller.partnerId, caller.environment)));
  }

  @Delete('keys/:key_id')
  @ApiOperation({
    summary: 'Revoke a restricted key; it is refused from this answer on',
    operationId: 'revokeScopedKey',
  })
  @ApiOkResponse({ type: RevokedKeyDto, description: 'The key is refused from this answer on' })
  @ApiErrorResponses({ 404: 'not_found: no restricted key with this id in this environment' })
  async revoke(@CurrentCaller() caller: Caller, @Param('key_id') keyId: string) {
    await this.mainKey.check(caller, 'revoke keys');
    await this.commands.execute(
      new RevokeScopedKey(caller.partnerId, caller.environment, keyId, { type: 'partner_key', id: caller.keyId }),
    );
    return revokedKeyResource(keyId);
  }
}
